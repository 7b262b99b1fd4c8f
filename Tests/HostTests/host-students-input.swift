import Foundation
import Testing

/// Hostile input to the students commands from the shell (issue 11): one clear line, a usage
/// or data exit status, no crash, nothing written.
@Suite("Students commands refuse bad input", .waitsOnProcesses, .commandLineShape)
struct HostStudentsInputTests {
    static let header = "gr_number,given_name,surname,name_language,date_of_birth,gender,status,enrolled_on,class\n"

    @Test("numbers are bounded when the command starts: huge, negative and non-numeric pages and capacities")
    func numbers() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo"]).status == 0)
        #expect(try hogwarts.login("admin@databayt.org").status == 0)
        for arguments in [["students", "list", "--page", "461168601842738792"], ["students", "list", "--page", "-3"], ["students", "list", "--page", "1e3"],
                          ["classes", "add", "9Z", "--name-ar", "ت", "--name-en", "9Z", "--year-level", "G7", "--capacity", "-1"],
                          ["subjects", "add", "ART", "--name-ar", "فن", "--name-en", "Art", "--credits", "nan"]] {
            let result = try hogwarts.run(arguments + ["--lang", "en"])
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(arguments[arguments.count - 2]), "names the option: \(result.stderr)")
            #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("Missing value"))
        }
        #expect(try hogwarts.run(["students", "list", "--page", "2"]).status == 0)
    }

    @Test("CSV files that are malformed, UTF-16, or have a repeated header or extra fields are refused with row and column")
    func badFiles() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo"]).status == 0)
        #expect(try hogwarts.login("admin@databayt.org").status == 0)
        let good = "X-1,Ali,Taha,en,2014-03-02,MALE,,,\n"
        var utf16 = Data([0xFF, 0xFE])
        utf16.append((Self.header + good).data(using: .utf16LittleEndian) ?? Data())
        let files: [(Data, String)] = [
            (Data((Self.header + "X-1,\"Ali,Taha,en,2014-03-02,MALE,,,\n").utf8), "never closed"),
            (utf16, "UTF-16"),
            (Data(("gr_number,gr_number,given_name,surname,date_of_birth,gender\n" + "X-1,X-1,Ali,Taha,2014-03-02,MALE\n").utf8), "named twice"),
            (Data((Self.header + "X-1,Ali,Taha,en,2014-03-02,MALE,,,,=cmd\n").utf8), "10 fields"),
            (Data((Self.header).utf8) + Data("X-1,Al".utf8) + Data([0x00]) + Data("i,Taha,en,2014-03-02,MALE,,,\n".utf8), "control character"),
            (Data((Self.header).utf8) + Data("X-1,Al".utf8) + Data([0xC3, 0x28]) + Data("i,Taha,en,2014-03-02,MALE,,,\n".utf8), "not valid UTF-8"),
        ]
        let before = try hogwarts.run(["students", "list", "--json"]).stdout
        for (index, (data, reason)) in files.enumerated() {
            let path = hogwarts.directory.appending(path: "bad-\(index).csv").path
            #expect(FileManager.default.createFile(atPath: path, contents: data))
            let result = try hogwarts.run(["students", "import", path, "--lang", "en"])
            #expect(result.status == 65, "\(reason): \(result.stderr)")
            #expect((result.stdout + result.stderr).contains(reason), "\(result.stdout) \(result.stderr)")
            #expect(!result.stderr.contains("quotation(message"))
        }
        #expect(try hogwarts.run(["students", "list", "--json"]).stdout == before, "nothing imported")
        let bom = hogwarts.directory.appending(path: "bom.csv").path
        #expect(FileManager.default.createFile(atPath: bom, contents: Data([0xEF, 0xBB, 0xBF]) + Data((Self.header + good).utf8)))
        let imported = try hogwarts.run(["students", "import", bom, "--lang", "en"])
        #expect(imported.status == 0 && imported.stdout.contains("Imported 1 students"), "\(imported.stderr)")
    }

    @Test("control characters in names are refused; % and _ match no one; the CSV export is spreadsheet-safe")
    func namesSearchAndExport() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo"]).status == 0)
        #expect(try hogwarts.login("admin@databayt.org").status == 0)
        let add = ["students", "add", "X-2", "--surname", "Taha", "--birth", "2014-01-02", "--gender", "MALE", "--lang", "en", "--given-name"]
        for name in ["Al\u{1B}[31mi", "Al\u{7}i", "Al\ri", "Al\ni", String(repeating: "a", count: 10_000)] {
            let result = try hogwarts.run(add + [name])
            #expect(result.status == 65 && result.stderr.contains("given_name"), "\(result.stderr)")
            #expect(!result.stderr.contains("\u{1B}"), "the refusal does not replay the escape")
        }
        for wildcard in ["%", "_"] {
            let found = try hogwarts.run(["students", "list", "--search", wildcard, "--json"])
            let page = try JSONSerialization.jsonObject(with: Data(found.stdout.utf8)) as? [String: Any]
            #expect(page?["total"] as? Int == 0, "\(wildcard) matched \(page?["total"] ?? "?")")
        }
        #expect(try hogwarts.run(add + ["=HYPERLINK(\"http://x\")"]).status == 0)
        let csv = try hogwarts.run(["students", "export"]).stdout
        #expect(csv.contains("\"'=HYPERLINK(\"\"http://x\"\")\""), "neutralized and quoted")
        #expect(!csv.split(separator: "\n").contains { $0.contains(",=") || $0.hasPrefix("=") })
    }
}
