import Foundation
import HogwartsTestSupport
import Testing

@Suite("Argument errors in the user's language", .waitsOnProcesses, .commandLineShape)
struct ArgumentErrorTests {
    /// Each mistake with the English sentence and the Arabic words that must appear; every one exits 64.
    static let mistakes: [(arguments: [String], english: String, arabic: String)] = [
        (["studnets", "list"], "Unknown command 'studnets'. Did you mean 'students'?", "هل تقصد «students»؟"),
        (["students", "lsit"], "Unknown command 'lsit'. Did you mean 'list'?", "هل تقصد «list»؟"),
        (["students", "list", "--clas", "7A"], "Unknown option '--clas'. Did you mean '--class'?", "الخيار «--clas» غير معروف"),
        (["students", "list", "--zzz"], "Unknown option '--zzz'.", "الخيار «--zzz» غير معروف"),
        (["students", "list", "--page"], "The option '--page <page>' needs a value.", "يحتاج إلى قيمة"),
        (["students", "show"], "The argument '<gr-number>' is missing.", "ناقص"),
        (["migrate", "extra", "words"], "Unexpected arguments: 'extra', 'words'.", "وسائط غير متوقعة"),
        (["audit", "--limit", "lots"], "The value 'lots' is not valid for '--limit <limit>'.", "غير صالحة"),
        (["migrate", "--status=yes"], "The option '--status' takes no value, but 'yes' was given.", "لا يأخذ قيمة"),
    ]

    @Test("argument-parser's errors and unknown commands are said in Arabic by default and in English with --lang en or HOGWARTS_LANG=en, exit 64", arguments: mistakes.indices)
    func translated(index: Int) throws {
        let (arguments, english, arabic) = Self.mistakes[index]
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        let inArabic = try hogwarts.run(arguments)
        #expect(inArabic.status == 64, "\(arguments): \(inArabic.stderr)")
        #expect(inArabic.stderr.hasPrefix("hogwarts: ") && inArabic.stderr.contains(arabic), "\(arguments): \(inArabic.stderr)")
        #expect(inArabic.stderr.contains("راجع «hogwarts"), "\(arguments): where help is, in Arabic: \(inArabic.stderr)")
        #expect(!inArabic.stderr.contains(english), "\(arguments): still English in Arabic mode")
        // `--lang en` goes before a last option that lacks its value, which would take it as one.
        let lastIsBare = arguments.last?.hasPrefix("--") == true
        let withLang = lastIsBare ? arguments.dropLast() + ["--lang", "en"] + arguments.suffix(1) : arguments + ["--lang", "en"]
        for run in [try hogwarts.run(withLang), try hogwarts.run(arguments, environment: ["HOGWARTS_LANG": "en"])] {
            #expect(run.status == 64, "\(arguments): \(run.stderr)")
            #expect(run.stderr.hasPrefix("hogwarts: \(english)\n"), "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("See 'hogwarts"), "\(arguments): \(run.stderr)")
            #expect(!run.stderr.contains("Error: "), "\(arguments): argument-parser's own wording: \(run.stderr)")
        }
        if !TestDatabase.isPostgres {
            #expect(!FileManager.default.fileExists(atPath: hogwarts.databasePath), "\(arguments): nothing was created")
        }
    }

    @Test("the help line names the command that was mistyped under")
    func helpLine() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        let nested = try hogwarts.run(["attendance", "excuse", "aprove", "--lang", "en"])
        #expect(nested.status == 64)
        #expect(nested.stderr.contains("Unknown command 'aprove'. Did you mean 'approve'?"), "\(nested.stderr)")
        #expect(nested.stderr.contains("See 'hogwarts attendance excuse --help'"), "\(nested.stderr)")
        let farOff = try hogwarts.run(["xyzzy", "--lang", "en"])
        #expect(farOff.status == 64)
        #expect(farOff.stderr.hasPrefix("hogwarts: Unknown command 'xyzzy' after 'hogwarts'.\n"), "no suggestion when nothing is close: \(farOff.stderr)")
        #expect(try hogwarts.run(["students", "--help", "--lang", "en"]).status == 0, "help is still help")
    }
}
