import Core
import Foundation

/// The text rules of messages, shared by send and edit so both refuse the same things.
enum MessageText {
    static let maxBody = 4000

    /// 1 to 4000 characters, not only blanks; line breaks and tabs are fine, other control
    /// characters (escape, bell, carriage return, NUL) and invalid UTF-8 are not.
    static func check(body: String) throws {
        guard (1...maxBody).contains(body.count), !body.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw MessagesError.bodyLength }
        try TextInput.check(body, field: "body", maxLength: maxBody, multiline: true)
    }

    /// A conversation or message id, or its start: not empty (which would match every row) and
    /// plain text.
    static func isReference(_ text: String) -> Bool {
        !text.isEmpty && TextInput.problem(in: text, maxLength: 64) == nil
    }
}
