import Core
import Foundation
import Testing

/// The console's multipart/form-data reader against what browsers send and what they never do:
/// every malformed body is refused whole, and nothing past a limit is read.
@Suite("Console multipart reader")
struct ConsoleMultipartTests {
    static let type = "multipart/form-data; boundary=XyZ"

    static func body(_ text: String) -> [UInt8] { Array(text.replacingOccurrences(of: "\n", with: "\r\n").utf8) }

    static let browser = body("""
        --XyZ
        Content-Disposition: form-data; name="_csrf"

        token-1
        --XyZ
        Content-Disposition: form-data; name="file"; filename="C:\\\\Users\\\\me\\\\students.csv"
        Content-Type: text/csv

        a,b
        1,2
        --XyZ
        Content-Disposition: form-data; name="note"

        سطر
        --XyZ--

        """)

    @Test("a browser's form gives its text fields in order and its file with only the last part of its name")
    func browserForm() throws {
        let parsed = try ConsoleMultipart.parse(Self.browser, contentType: Self.type)
        #expect(parsed.fields.map(\.0) == ["_csrf", "note"] && parsed.fields.map(\.1) == ["token-1", "سطر"])
        let file = try #require(parsed.uploads.first)
        #expect(parsed.uploads.count == 1 && file.field == "file" && file.fileName == "students.csv" && file.contentType == "text/csv")
        #expect(file.data == Data("a,b\r\n1,2".utf8), "the file's bytes, its own line breaks kept, the delimiter's not")
    }

    @Test("a quoted boundary, a quoted name holding a semicolon, and a field chosen with no file")
    func quotedAndEmpty() throws {
        let text = "--a b\r\nContent-Disposition: form-data; name=\"x;y\"\r\n\r\nv\r\n--a b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\"\r\n"
            + "Content-Type: application/octet-stream\r\n\r\n\r\n--a b--"
        let parsed = try ConsoleMultipart.parse(Array(text.utf8), contentType: "multipart/form-data; boundary=\"a b\"")
        #expect(parsed.fields.first?.0 == "x;y" && parsed.uploads.isEmpty)
    }

    @Test("binary bytes that look like part of a boundary stay in the file")
    func nearBoundary() throws {
        var payload = Data([0x50, 0x4B, 0x03, 0x04, 0x0D, 0x0A, 0x2D, 0x2D, 0x58, 0x79])
        payload.append(contentsOf: [UInt8](repeating: 0, count: 100))
        var bytes = Array("--XyZ\r\nContent-Disposition: form-data; name=\"f\"; filename=\"a.zip\"\r\n\r\n".utf8)
        bytes += Array(payload) + Array("\r\n--XyZ--\r\n".utf8)
        #expect(try ConsoleMultipart.parse(bytes, contentType: Self.type).uploads.first?.data == payload)
    }

    @Test("hostile bodies are refused whole", arguments: [
        ("no closing boundary", "--XyZ\nContent-Disposition: form-data; name=\"a\"\n\nv\n"),
        ("text before the first boundary", "hello\n--XyZ\nContent-Disposition: form-data; name=\"a\"\n\nv\n--XyZ--"),
        ("junk after the closing boundary", "--XyZ\nContent-Disposition: form-data; name=\"a\"\n\nv\n--XyZ--junk"),
        ("no Content-Disposition", "--XyZ\nContent-Type: text/plain\n\nv\n--XyZ--"),
        ("not form-data", "--XyZ\nContent-Disposition: attachment; name=\"a\"\n\nv\n--XyZ--"),
        ("no name", "--XyZ\nContent-Disposition: form-data; filename=\"a.csv\"\n\nv\n--XyZ--"),
        ("an empty name", "--XyZ\nContent-Disposition: form-data; name=\"\"\n\nv\n--XyZ--"),
        ("an unclosed quote", "--XyZ\nContent-Disposition: form-data; name=\"a\n\nv\n--XyZ--"),
        ("a name given twice", "--XyZ\nContent-Disposition: form-data; name=\"a\"; name=\"b\"\n\nv\n--XyZ--"),
        ("two dispositions", "--XyZ\nContent-Disposition: form-data; name=\"a\"\nContent-Disposition: form-data; name=\"b\"\n\nv\n--XyZ--"),
        ("a header line without a colon", "--XyZ\nContent-Disposition: form-data; name=\"a\"\nbroken\n\nv\n--XyZ--"),
        ("no blank line after the headers", "--XyZ\nContent-Disposition: form-data; name=\"a\"\nv\n--XyZ--"),
        ("a boundary not followed by a line break", "--XyZ Content-Disposition: form-data; name=\"a\"\n\nv\n--XyZ--"),
        ("an encoded file name (filename*)", "--XyZ\nContent-Disposition: form-data; name=\"a\"; filename*=UTF-8''x.csv\n\nv\n--XyZ--"),
        ("an empty body", ""),
    ])
    func hostile(_ label: String, _ text: String) {
        #expect(throws: ConsoleMultipart.Failure.malformed, "\(label)") { try ConsoleMultipart.parse(Self.body(text), contentType: Self.type) }
    }

    @Test("a text field that is not UTF-8, and a header block past its limit, are refused")
    func badBytes() {
        let latin = Array("--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n".utf8) + [0xC3, 0x28] + Array("\r\n--XyZ--".utf8)
        #expect(throws: ConsoleMultipart.Failure.malformed) { try ConsoleMultipart.parse(latin, contentType: Self.type) }
        let longHeader = "--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\nX-Pad: \(String(repeating: "p", count: 5_000))\r\n\r\nv\r\n--XyZ--"
        #expect(throws: ConsoleMultipart.Failure.malformed) { try ConsoleMultipart.parse(Array(longHeader.utf8), contentType: Self.type) }
    }

    @Test("too many parts are refused, and a file or a body past its limit says so")
    func limits() {
        let many = (0..<40).map { "--XyZ\r\nContent-Disposition: form-data; name=\"f\($0)\"\r\n\r\nv\r\n" }.joined() + "--XyZ--"
        #expect(throws: ConsoleMultipart.Failure.malformed) { try ConsoleMultipart.parse(Array(many.utf8), contentType: Self.type) }
        let big = Array("--XyZ\r\nContent-Disposition: form-data; name=\"f\"; filename=\"a.csv\"\r\n\r\n".utf8)
            + [UInt8](repeating: 0x41, count: ConsoleMultipart.maximumFileSize + 1) + Array("\r\n--XyZ--".utf8)
        #expect(throws: ConsoleMultipart.Failure.fileTooLarge) { try ConsoleMultipart.parse(big, contentType: Self.type) }
        #expect(throws: ConsoleMultipart.Failure.bodyTooLarge) {
            try ConsoleMultipart.parse([UInt8](repeating: 0x2D, count: ConsoleMultipart.maximumBodySize + 1), contentType: Self.type)
        }
        #expect(ConsoleMultipart.Failure.fileTooLarge.status == 413 && ConsoleMultipart.Failure.malformed.status == 400)
    }

    @Test("a Content-Type without a boundary, with a bad one, or of another kind is not read", arguments: [
        "multipart/form-data", "multipart/form-data; boundary=", "multipart/form-data; boundary=\"unclosed",
        "multipart/form-data; boundary=\(String(repeating: "b", count: 71))", "multipart/form-data; boundary=a<b",
    ])
    func badBoundary(_ type: String) {
        #expect(throws: ConsoleMultipart.Failure.malformed) { try ConsoleMultipart.parse(Self.browser, contentType: type) }
    }

    @Test("only multipart/form-data is taken for one")
    func recognised() {
        #expect(ConsoleMultipart.isMultipart("Multipart/Form-Data; boundary=x"))
        #expect(!ConsoleMultipart.isMultipart("application/x-www-form-urlencoded") && !ConsoleMultipart.isMultipart(nil))
        #expect(!ConsoleMultipart.isMultipart("multipart/mixed; boundary=x"))
    }
}
