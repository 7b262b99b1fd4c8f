import Foundation
import HogwartsKernel

/// A file a console form sent (`<input type="file">`): the field's name, the name the browser
/// gave the file (its last path component only) and its bytes.
public struct ConsoleUpload: Sendable, Equatable {
    public let field: String
    public let fileName: String
    public let contentType: String
    public let data: Data

    public init(field: String, fileName: String, contentType: String, data: Data) {
        self.field = field
        self.fileName = fileName
        self.contentType = contentType
        self.data = data
    }
}

/// A strict, bounded reader of `multipart/form-data` (RFC 7578), the only way a browser sends a
/// file. It reads a body the shell has already collected under `maximumBodySize`, and refuses
/// rather than guesses: a missing or odd boundary, a part without `Content-Disposition: form-data`
/// and a name, a header block past its limit, text that is not UTF-8, too many parts, a file past
/// `maximumFileSize`, or a body that does not end with the closing boundary. A field chosen with no
/// file (the browser sends an empty file name) is no upload.
public enum ConsoleMultipart {
    /// The whole body: a file at its limit and the form's few text fields fit well inside.
    public static let maximumBodySize = 2 << 20
    /// One file. A page that carries the file on to a second step (a check, then the import) in a
    /// hidden field needs its base64 text (4/3 of this) to fit in a body too.
    public static let maximumFileSize = 1 << 20
    static let maximumParts = 16
    static let maximumHeaderBytes = 4_096
    static let maximumFieldBytes = maximumBodySize

    public enum Failure: Error, Equatable, Sendable {
        /// Not a form this reader can trust; nothing in it is used.
        case malformed
        /// The body is over `maximumBodySize`.
        case bodyTooLarge
        /// A file is over `maximumFileSize`.
        case fileTooLarge

        /// 413 for a size, 400 for a body that is not a form.
        public var status: Int { self == .malformed ? 400 : 413 }

        /// What the page says, in words a person can act on.
        public var message: LocalizedText {
            switch self {
            case .malformed:
                LocalizedText(ar: "لم يصل النموذج كاملًا أو سليمًا، فلم يُقرأ منه شيء ولم يتغيّر شيء. ارجع إلى الصفحة واختر الملف مرة أخرى.",
                              en: "The form did not arrive whole and well formed, so none of it was read and nothing changed. Go back to the page and choose the file again.")
            case .bodyTooLarge, .fileTooLarge:
                LocalizedText(ar: "الملف أكبر من الحد المسموح (1 ميغابايت)، فلم يُقرأ ولم يتغيّر شيء. قسّمه إلى ملفات أصغر وأرسل كلًّا منها.",
                              en: "The file is larger than the limit of 1 MB, so it was not read and nothing changed. Split it into smaller files and send each one.")
            }
        }
    }

    /// Whether a request's `Content-Type` says multipart/form-data (parameters aside).
    public static func isMultipart(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        return contentType.split(separator: ";", maxSplits: 1).first?.trimmingCharacters(in: .whitespaces).lowercased() == "multipart/form-data"
    }

    /// The boundary a `Content-Type` names (quoted or not); nil when absent or not as RFC 2046 allows.
    static func boundary(_ contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == "boundary" else { continue }
            var value = pair[1]
            if value.hasPrefix("\"") {
                guard value.count >= 2, value.hasSuffix("\"") else { return nil }
                value = String(value.dropFirst().dropLast())
            }
            let allowed = CharacterSet(charactersIn: "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'()+_,-./:=? ")
            guard (1...70).contains(value.utf8.count), !value.hasSuffix(" "),
                  value.unicodeScalars.allSatisfy({ allowed.contains($0) }) else { return nil }
            return value
        }
        return nil
    }

    /// The text fields in order, and the files chosen.
    public static func parse(_ body: [UInt8], contentType: String) throws(Failure) -> (fields: [(String, String)], uploads: [ConsoleUpload]) {
        guard body.count <= maximumBodySize else { throw .bodyTooLarge }
        guard let boundary = boundary(contentType) else { throw .malformed }
        let opening = Array("--\(boundary)".utf8)
        let delimiter = Array("\r\n--\(boundary)".utf8)
        guard body.starts(with: opening) else { throw .malformed }
        var fields: [(String, String)] = []
        var uploads: [ConsoleUpload] = []
        var position = opening.count
        var parts = 0
        while true {
            // After a boundary: "--" ends the body (an optional CRLF may follow), CRLF opens a part.
            if body[position...].starts(with: [0x2D, 0x2D]) {
                let rest = body[(position + 2)...]
                guard rest.isEmpty || Array(rest) == [0x0D, 0x0A] else { throw .malformed }
                return (fields, uploads)
            }
            guard body[position...].starts(with: [0x0D, 0x0A]) else { throw .malformed }
            position += 2
            parts += 1
            guard parts <= maximumParts else { throw .malformed }
            guard let headerEnd = find([0x0D, 0x0A, 0x0D, 0x0A], in: body, from: position, within: maximumHeaderBytes) else { throw .malformed }
            let head = try Head(body[position..<headerEnd])
            let start = headerEnd + 4
            guard let end = find(delimiter, in: body, from: start, within: body.count) else { throw .malformed }
            let content = body[start..<end]
            if let fileName = head.fileName {
                guard content.count <= maximumFileSize else { throw .fileTooLarge }
                if !fileName.isEmpty || !content.isEmpty {
                    uploads.append(ConsoleUpload(field: head.name, fileName: fileName, contentType: head.contentType, data: Data(content)))
                }
            } else {
                guard content.count <= maximumFieldBytes, let text = String(validating: content, as: UTF8.self) else { throw .malformed }
                fields.append((head.name, text))
            }
            position = end + delimiter.count
        }
    }

    /// Where `needle` starts at or after `from`, looking no further than `within` bytes on.
    private static func find(_ needle: [UInt8], in body: [UInt8], from: Int, within: Int) -> Int? {
        guard from <= body.count else { return nil }
        return body[from..<min(body.count, from + within + needle.count)].firstRange(of: needle)?.lowerBound
    }

    /// A part's headers: the field's name, the file name when it is a file, and its type.
    private struct Head {
        var name = ""
        package var fileName: String?
        var contentType = ""

        init(_ bytes: ArraySlice<UInt8>) throws(Failure) {
            guard let text = String(validating: bytes, as: UTF8.self) else { throw .malformed }
            var disposition: String?
            for line in text.components(separatedBy: "\r\n") {
                guard let colon = line.firstIndex(of: ":") else { throw .malformed }
                let header = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                switch header {
                case "content-disposition":
                    guard disposition == nil else { throw .malformed }
                    disposition = value
                case "content-type": contentType = String(value.prefix(200))
                default: continue
                }
            }
            guard let disposition else { throw .malformed }
            let parameters = try Self.parameters(disposition)
            guard let name = parameters["name"], !name.isEmpty, name.utf8.count <= 200 else { throw .malformed }
            self.name = name
            // Only the last path component: old browsers sent `C:\Users\...\file.csv`.
            fileName = parameters["filename"].map { String($0.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last ?? "").prefix(200) }.map(String.init)
        }

        /// `form-data; name="a"; filename="b.csv"`: quoted values may hold `;` and `\"`.
        private static func parameters(_ value: String) throws(Failure) -> [String: String] {
            var characters = Substring(value)
            func token() -> String {
                let taken = characters.prefix { $0 != ";" && $0 != "=" }
                characters = characters.dropFirst(taken.count)
                return taken.trimmingCharacters(in: .whitespaces)
            }
            guard token().lowercased() == "form-data" else { throw .malformed }
            var parameters: [String: String] = [:]
            while let separator = characters.first {
                guard separator == ";" else { throw .malformed }
                characters = characters.dropFirst()
                let key = token().lowercased()
                guard characters.first == "=", !key.isEmpty else { throw .malformed }
                characters = characters.dropFirst().drop { $0 == " " }
                var parsed = ""
                if characters.first == "\"" {
                    characters = characters.dropFirst()
                    var closed = false
                    while let character = characters.first {
                        characters = characters.dropFirst()
                        if character == "\\", let escaped = characters.first {
                            parsed.append(escaped)
                            characters = characters.dropFirst()
                        } else if character == "\"" {
                            closed = true
                            break
                        } else {
                            parsed.append(character)
                        }
                    }
                    guard closed else { throw .malformed }
                    characters = characters.drop { $0 == " " }
                } else {
                    parsed = token()
                }
                guard parameters[key] == nil, key != "filename*" else { throw .malformed }
                parameters[key] = parsed
            }
            return parameters
        }
    }
}
