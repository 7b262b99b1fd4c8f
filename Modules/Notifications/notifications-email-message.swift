import Foundation

/// An email as RFC 5322 and MIME put it: headers whose non-ASCII words are RFC 2047 encoded,
/// and a multipart/alternative body of UTF-8 text and HTML, each base64 (safe for any script
/// and any line length). What `sendmail -t` reads on its standard input.
struct EmailMessage: Equatable {
    struct Address: Equatable {
        let name: String
        let email: String
    }

    let from: Address
    let to: Address
    let subject: String
    let text: String
    let html: String
    let date: Date
    /// Stable per outbox entry, so a send repeated after a crash is recognisably the same mail.
    let messageID: String
    /// Where the reader switches this kind of mail off (RFC 2369).
    let unsubscribe: String
    let language: String

    /// The whole message, CRLF line ends, ready for a mail transfer agent.
    func rendered(boundary: String = "=_hogwarts_" + UUID().uuidString.lowercased()) -> String {
        let headers = [
            "From: \(Self.mailbox(from))",
            "To: \(Self.mailbox(to))",
            "Subject: \(Self.encodedWords(subject, firstLineTaken: "Subject: ".count))",
            "Date: \(Self.rfc5322Date(date))",
            "Message-ID: <\(messageID)>",
            "List-Unsubscribe: <\(unsubscribe)>",
            "Content-Language: \(language)",
            "MIME-Version: 1.0",
            "Content-Type: multipart/alternative; boundary=\"\(boundary)\"",
        ]
        let parts = [("text/plain", text), ("text/html", html)].map { type, content in
            "--\(boundary)\r\nContent-Type: \(type); charset=UTF-8\r\nContent-Transfer-Encoding: base64\r\n\r\n" + Self.base64Lines(content)
        }
        return headers.joined(separator: "\r\n") + "\r\n\r\n" + parts.joined(separator: "\r\n") + "\r\n--\(boundary)--\r\n"
    }

    /// `Name <address>`, the name encoded when it is not plain ASCII.
    static func mailbox(_ address: Address) -> String {
        let name = address.name.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
        guard !name.isEmpty else { return "<\(address.email)>" }
        let plain = name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == " ") }
        // An encoded name ends its own line, so a long address never pushes it past 78 characters.
        return plain ? "\(name) <\(address.email)>" : encodedWords(name, firstLineTaken: 6) + "\r\n <\(address.email)>"
    }

    /// RFC 2047 `=?UTF-8?B?...?=` words, cut between characters (never inside one UTF-8
    /// sequence), folded onto continuation lines. ASCII text that fits stays as is.
    static func encodedWords(_ text: String, firstLineTaken: Int) -> String {
        let flat = text.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
        if flat.allSatisfy({ $0.isASCII }) && flat.count + firstLineTaken <= 78 { return flat }
        // 39 bytes are 52 base64 characters, a word of 64: with "Subject: " in front the line
        // stays within 78 characters, and every word within RFC 2047's 75.
        let maximumBytes = 39
        var words: [String] = []
        var chunk: [UInt8] = []
        for character in flat {
            let bytes = Array(String(character).utf8)
            if chunk.count + bytes.count > maximumBytes, !chunk.isEmpty {
                words.append(word(chunk))
                chunk = []
            }
            chunk += bytes
        }
        if !chunk.isEmpty { words.append(word(chunk)) }
        return words.joined(separator: "\r\n ")
    }

    private static func word(_ bytes: [UInt8]) -> String {
        "=?UTF-8?B?" + Data(bytes).base64EncodedString() + "?="
    }

    /// Base64 in lines of 76 characters (RFC 2045).
    static func base64Lines(_ text: String) -> String {
        let encoded = Data(text.utf8).base64EncodedString()
        var lines: [Substring] = []
        var start = encoded.startIndex
        while start < encoded.endIndex {
            let end = encoded.index(start, offsetBy: 76, limitedBy: encoded.endIndex) ?? encoded.endIndex
            lines.append(encoded[start..<end])
            start = end
        }
        return lines.joined(separator: "\r\n")
    }

    /// `Fri, 27 Nov 2026 08:12:00 +0000`, in English whatever the server's locale.
    static func rfc5322Date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        return formatter.string(from: date)
    }
}
