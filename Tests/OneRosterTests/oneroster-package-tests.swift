import Foundation
import HogwartsTestSupport
@testable import OneRoster
import Testing

@Suite("OneRoster files")
struct OneRosterPackageTests {
    func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appending(path: "oneroster-\(UUID().uuidString)-\(name)").path
    }

    @Test("an export written as a zip or a folder reads back as the same set, readable by its owner only")
    func zipAndFolder() throws {
        let school = try OneRosterSchool()
        try school.importSet(OneRosterFixture.bulk().set)
        let export = try school.run(ExportOneRoster.self, .init())
        let expected = Dictionary(uniqueKeysWithValues: export.files.map { (String($0.key.dropLast(4)), OneRosterReading(text: $0.value)) })
        for zip in [true, false] {
            let path = temporary(zip ? "set.zip" : "set")
            defer { try? FileManager.default.removeItem(atPath: path) }
            try OneRosterPackage.write(export.files, to: path, zip: zip)
            #expect(try OneRosterPackage.read(path) == expected)
            let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            #expect(mode == (zip ? 0o600 : 0o700))
            #expect(throws: OneRosterError.targetExists(path)) { try OneRosterPackage.write(export.files, to: path, zip: zip) }
        }
    }

    @Test("a file that is not UTF-8, and a path that is no set, are refused by name")
    func unreadable() throws {
        let folder = temporary("utf16")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data([0xFF, 0xFE, 0x41, 0x00, 0xD8, 0x00]).write(to: URL(filePath: folder).appending(path: "users.csv"))
        #expect(throws: OneRosterError.notUTF8("users.csv")) { try OneRosterPackage.read(folder) }
        let notZip = temporary("not.zip")
        try Data("hello".utf8).write(to: URL(filePath: notZip))
        defer { try? FileManager.default.removeItem(atPath: notZip) }
        #expect(throws: OneRosterError.unreadablePackage(notZip)) { try OneRosterPackage.read(notZip) }
    }

    @Test("CSV cells: quotes, commas, CRLF and line breaks inside quotes; a BOM is dropped")
    func csv() throws {
        let table = try OneRosterCSV.parse("\u{FEFF}a,b\r\n\"x, \"\"y\"\"\",\"line\nbreak\"\r\n\r\n1,\r\n")
        #expect(table.header == ["a", "b"])
        #expect(table.rows == [["x, \"y\"", "line\nbreak"], ["1", ""]])
        #expect(OneRosterCSV.write(header: ["a"], rows: [["x, \"y\""]]) == "a\r\n\"x, \"\"y\"\"\"\r\n")
    }

    @Test("read in chunks of any size, a file gives the same rows as read whole: a quote, CRLF or BOM split between chunks included")
    func chunks() throws {
        let text = "\u{FEFF}sourcedId,givenName\r\n\"a,\"\"1\"\"\",\"line\r\nbreak\"\r\n\r\nb,نور\rx\r\nc,\"\"\n\"d\",e\r"
        let whole = try OneRosterCSV.parse(text)
        #expect(whole.rows == [["a,\"1\"", "line\r\nbreak"], ["b", "نور\rx"], ["c", ""], ["d", "e\r"]])
        let bytes = Array(text.utf8)
        for size in 1...7 {
            var reader = OneRosterCSV.Reader()
            for start in stride(from: 0, to: bytes.count, by: size) {
                try reader.feed(Data(bytes[start..<min(start + size, bytes.count)]))
            }
            #expect(try reader.finish() == whole, "chunks of \(size) bytes")
        }
        var broken = OneRosterCSV.Reader()
        try broken.feed(Data("a\nb,\"open\n".utf8))
        #expect(throws: OneRosterCSV.Reader.Refusal.unclosedQuote(row: 2)) { try broken.finish() }
        var notText = OneRosterCSV.Reader()
        #expect(throws: OneRosterCSV.Reader.Refusal.notUTF8) { try notText.feed(Data([0x61, 0x2C, 0xC3, 0x28, 0x0A])) }
    }
}
