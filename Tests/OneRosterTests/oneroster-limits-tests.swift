import Auth
import Core
import Foundation
import HogwartsTestSupport
@testable import OneRoster
import Testing

/// Hostile files: each ends in the error that names its limit and setting, before memory runs out,
/// and nothing is written.
@Suite("OneRoster limits")
struct OneRosterLimitsTests {
    func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appending(path: "oneroster-limits-\(UUID().uuidString)-\(name)").path
    }

    /// A zip of the bulk fixture with extra entries by path.
    func zip(_ extra: [String: String], fixture: OneRosterFixture = .bulk()) throws -> String {
        let path = temporary("set.zip")
        var files = Dictionary(uniqueKeysWithValues: fixture.set.map { ($0.key + ".csv", $0.value) })
        files.merge(extra) { _, new in new }
        try OneRosterPackage.write(files, to: path, zip: true)
        return path
    }

    func limit(_ error: OneRosterError) -> String? {
        if case .limitExceeded(let limit, let setting, _, _) = error { return "\(limit) \(setting)" }
        return nil
    }

    @Test("a zip bomb: 64 MB of one repeated line in a tiny entry is refused by its ratio")
    func zipBomb() throws {
        let line = "u-x,,,true,,,A,B,,,,,,,,,,,,,,,\n"
        let path = try zip(["users.csv": String(repeating: line, count: (64 << 20) / line.utf8.count)])
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect((try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0) < 1 << 20)
        #expect(throws: OneRosterError.limitExceeded(limit: "ratio", setting: "oneroster.max-compression-ratio", allowed: "100:1", file: "users.csv")) {
            try OneRosterPackage.read(path)
        }
        var small = OneRosterLimits()
        small.ratio = 10_000
        small.fileBytes = 16 << 20
        #expect(throws: OneRosterError.limitExceeded(limit: "file-size", setting: "oneroster.max-file-mb", allowed: "16 MB", file: "users.csv")) {
            try OneRosterPackage.read(path, limits: small)
        }
    }

    @Test("a zip whose header understates an entry's size stops at the declared size while inflating")
    func lyingHeader() throws {
        let path = try zip(["users.csv": String(repeating: "a,b\n", count: 100_000)])
        defer { try? FileManager.default.removeItem(atPath: path) }
        var bytes = [UInt8](try Data(contentsOf: URL(filePath: path)))
        // Every record naming users.csv says it holds 1,000 bytes (local header, central directory).
        let name = Array("users.csv".utf8)
        var patched = 0
        for index in 0..<(bytes.count - 46) where bytes[index] == 0x50 && bytes[index + 1] == 0x4B {
            let (sizeAt, nameAt): (Int, Int) = switch (bytes[index + 2], bytes[index + 3]) {
            case (3, 4): (22, 30)
            case (1, 2): (24, 46)
            default: (-1, -1)
            }
            guard sizeAt > 0, nameAt + name.count <= bytes.count - index, Array(bytes[(index + nameAt)..<(index + nameAt + name.count)]) == name else { continue }
            bytes.replaceSubrange((index + sizeAt)..<(index + sizeAt + 4), with: [0xE8, 0x03, 0, 0])
            patched += 1
        }
        #expect(patched == 2)
        try Data(bytes).write(to: URL(filePath: path))
        #expect(throws: OneRosterError.limitExceeded(limit: "declared-size", setting: "oneroster.max-file-mb", allowed: "1000", file: "users.csv")) {
            try OneRosterPackage.read(path)
        }
    }

    @Test("many entries are refused by count; an entry deep in folders is not read")
    func entries() throws {
        var extra: [String: String] = [:]
        for index in 0..<1_001 { extra["extra/\(index).txt"] = "x" }
        let many = try zip(extra)
        defer { try? FileManager.default.removeItem(atPath: many) }
        #expect(throws: OneRosterError.limitExceeded(limit: "entries", setting: "oneroster.max-entries", allowed: "1000", file: "-")) {
            try OneRosterPackage.read(many)
        }
        let deep = try zip([String(repeating: "a/", count: 200) + "users.csv": "sourcedId\nx\n"])
        defer { try? FileManager.default.removeItem(atPath: deep) }
        #expect(try OneRosterPackage.read(deep)["users"] == OneRosterFixture.bulk().set["users"].map(OneRosterReading.init(text:)), "the root's users.csv, not the deep one")
    }

    @Test("a folder's file past the per-file or total size is refused before it is read")
    func folderSizes() throws {
        let folder = temporary("folder")
        try OneRosterPackage.write(Dictionary(uniqueKeysWithValues: OneRosterFixture.bulk().set.map { ($0.key + ".csv", $0.value) }), to: folder, zip: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(count: 2 << 20).write(to: URL(filePath: folder).appending(path: "zzz.csv"))
        var limits = OneRosterLimits()
        limits.fileBytes = 1 << 20
        #expect(throws: OneRosterError.limitExceeded(limit: "file-size", setting: "oneroster.max-file-mb", allowed: "1 MB", file: "zzz.csv")) {
            try OneRosterPackage.read(folder, limits: limits)
        }
        limits = OneRosterLimits()
        limits.totalBytes = 1 << 20
        #expect(throws: OneRosterError.limitExceeded(limit: "total-size", setting: "oneroster.max-total-mb", allowed: "1 MB", file: "zzz.csv")) {
            try OneRosterPackage.read(folder, limits: limits)
        }
    }

    @Test("a users.csv past the school's max-rows is refused by the import, naming the setting, and writes nothing")
    func rows() throws {
        let school = try OneRosterSchool()
        try school.harness.kernel.setSetting("oneroster.max-rows", to: "50000", for: school.harness.school.id, by: school.admin)
        var fixture = OneRosterFixture.bulk()
        fixture.files["users"]? += (0..<60_000).map { OneRosterFixture.user("u-big\($0)", given: "T", family: "\($0)", email: "t\($0)@big.example") }
        #expect(throws: OneRosterError.limitExceeded(limit: "rows", setting: "oneroster.max-rows", allowed: "50000", file: "users.csv")) {
            try school.importSet(fixture.set, dryRun: true)
        }
        #expect(throws: OneRosterError.self) { try school.importSet(fixture.set) }
        #expect(try school.run(ListUsers.self, .init()).count <= 1, "only the admin who imports")
        #expect(try OneRosterCSV.parse("a,b\r\n\"x\ny\",1\r\n\r\n2,3").rows.count == 2, "a quoted line break and a blank line are no rows")
    }

    @Test("reading a set stops at the row past max-rows, counting every file but the manifest")
    func rowsWhileReading() throws {
        let folder = temporary("rows")
        var files = Dictionary(uniqueKeysWithValues: OneRosterFixture.bulk().set.map { ($0.key + ".csv", $0.value) })
        files["users.csv"] = (files["users.csv"] ?? "") + (0..<5_000).map { "u-r\($0),,,true,,,T,\($0),,,,,,,,,,,,,,,\n" }.joined()
        try OneRosterPackage.write(files, to: folder, zip: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let total = try OneRosterPackage.read(folder).filter { $0.key != "manifest" }.reduce(0) { sum, file in
            guard case .table(let table) = file.value else { return sum }
            return sum + table.rows.count
        }
        var limits = OneRosterLimits()
        limits.rows = total
        #expect(try OneRosterPackage.read(folder, limits: limits).count == files.count, "exactly at the limit is read")
        limits.rows = total - 1
        #expect(throws: OneRosterError.limitExceeded(limit: "rows", setting: "oneroster.max-rows", allowed: String(total - 1), file: "users.csv")) {
            try OneRosterPackage.read(folder, limits: limits)
        }
    }
}
