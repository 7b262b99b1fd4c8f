@testable import Core
import Foundation
import GRDB
import PropertyBased
import Testing

/// Generated input for the kernel's parsers and checks: none may crash, each rejects with a
/// reason, and each accepts exactly what it documents.
@Suite("Input checks on generated input")
struct InputPropertyTests {
    /// Any text, controls, quotes, Arabic and wildcards included.
    static let anyText = Gen.oneOf(
        Gen.oneOf(Gen.character(in: "\u{0}"..."\u{2FF}"), Gen.character(in: "\u{600}"..."\u{6FF}"), Gen.character(in: "\u{2000}"..."\u{206F}"))
            .string(of: 0...30),
        Gen<String?>.element(of: ["=", "+", "-", "@", "'", "%", "_", "\\", "\u{0}", "\u{1B}", "\r", "\n", "\t", "a", "7", "ع", ".", "x", "e", "n"])
            .map { $0 ?? "" }.array(of: 0...12).map { $0.joined() })

    @Test("dates: only real days between 1900 and 2199 parse, and they print back as written")
    func dates() async {
        await propertyCheck(count: 500, input: Gen.int(in: -5...2300), Gen.int(in: -1...14), Gen.int(in: -1...33)) { year, month, day in
            let text = String(format: "%04d-%02d-%02d", year, month, day)
            let parsed = CivilDate(text)
            var components = DateComponents()
            (components.year, components.month, components.day) = (year, month, day)
            let realDay = (1...12).contains(month) && (1...31).contains(day) && (1900...2199).contains(year)
                && Calendar(identifier: .gregorian).date(from: components).map {
                    Calendar(identifier: .gregorian).dateComponents([.year, .month, .day], from: $0) == components
                } == true
            #expect((parsed != nil) == realDay, "\(text)")
            if let parsed { #expect(parsed.description == text) }
        }
        await propertyCheck(count: 500, input: Self.anyText) { text in
            if let parsed = CivilDate(text) { #expect(parsed.description == text) }
        }
    }

    @Test("numbers: plain decimals parse exactly; nan, inf, hexadecimal and exponents never do")
    func numbers() async {
        await propertyCheck(count: 500, input: Gen.int(in: -99_999...99_999), Gen.int(in: 0...99)) { whole, hundredths in
            let text = "\(whole).\(String(format: "%02d", hundredths))"
            let value = StrictNumber.decimal(text)
            #expect(value.map { abs($0 - (Double(text) ?? .nan)) < 1e-9 } == true, "\(text)")
            #expect(StrictNumber.integer(String(whole)) == whole)
        }
        for text in ["nan", "NaN", "inf", "-inf", "infinity", "0x10", "1e400", "1e3", "", " ", "1.", ".5", "--1", "١٢"] {
            #expect(StrictNumber.decimal(text) == nil, "\(text)")
        }
        #expect(StrictNumber.integer("461168601842738792") == nil, "too many digits for a count")
        await propertyCheck(count: 500, input: Self.anyText) { text in
            if let value = StrictNumber.decimal(text) { #expect(value.isFinite) }
        }
    }

    @Test("text: a control character, NUL or invalid UTF-8 is refused with a reason, anything else up to the limit passes")
    func text() async {
        await propertyCheck(count: 500, input: Self.anyText) { text in
            let hasControl = text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{FFFD}" }
            let problem = TextInput.problem(in: text, maxLength: 20)
            #expect((problem != nil) == (hasControl || text.count > 20), "\(text.debugDescription)")
            #expect(!TextInput.printable(text).unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        }
        #expect(throws: InputError("kernel.error.text-control", ["field": "name", "max": "100"])) {
            try TextInput.check("Al\u{0}i", field: "name", maxLength: 100)
        }
        #expect(throws: InputError("kernel.error.text-too-long", ["field": "title", "max": "200"])) {
            try TextInput.check(String(repeating: "x", count: 10_000), field: "title", maxLength: 200)
        }
        try? TextInput.check("سطر\nسطر", field: "body", maxLength: 100, multiline: true)
    }

    @Test("LIKE patterns match the typed text literally, wildcards included")
    func likePatterns() async throws {
        let database = try DatabaseQueue()
        // NUL never reaches a query (TextInput refuses it) and SQLite compares text only up to one.
        let noNUL = Self.anyText.map { String(String.UnicodeScalarView($0.unicodeScalars.filter { $0 != "\u{0}" })) }
        await propertyCheck(count: 300, input: noNUL, noNUL) { needle, other in
            let matches = try database.read { db in
                try Bool.fetchOne(db, sql: "SELECT ? LIKE ? \(LikePattern.escapeClause)", arguments: [other + needle + other, LikePattern.contains(needle)])
            }
            #expect(matches == true, "\(needle.debugDescription) in \(other.debugDescription)")
            let wildcardOnly = try database.read { db in
                try Bool.fetchOne(db, sql: "SELECT ? LIKE ? \(LikePattern.escapeClause)", arguments: ["Amina", LikePattern.contains(needle)])
            }
            #expect(wildcardOnly == "Amina".lowercased().contains(needle.lowercased()) || needle.isEmpty, "\(needle.debugDescription)")
        }
    }

    @Test("CSV cells never start a formula, and an export imports back exactly")
    func csvCells() async {
        await propertyCheck(count: 500, input: Self.anyText) { text in
            let cell = CSVCell.neutralized(text)
            #expect(!["=", "+", "-", "@", "\t", "\r"].contains(cell.unicodeScalars.first.map(String.init) ?? ""), "\(text.debugDescription)")
            #expect(CSVCell.restored(cell) == text, "\(text.debugDescription)")
        }
        #expect(CSVCell.neutralized("=HYPERLINK(\"x\")") == "'=HYPERLINK(\"x\")")
        #expect(CSVCell.neutralized("=\u{301}1+1") == "'=\u{301}1+1", "a combining mark does not hide the formula")
    }
}

@Suite("Stored times")
struct StoredTimeTests {
    @Test("times are written as Foundation's ISO 8601 would write them, and read back to the same text")
    func storedTimes() async {
        let foundation = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        await propertyCheck(count: 1000, input: Gen.int(in: -2_000_000_000_000...7_000_000_000_000)) { millis in
            let date = Date(timeIntervalSince1970: Double(millis) / 1000 + 0.0004)
            let text = SQLDateFormat.string(from: date)
            #expect(text == date.formatted(foundation), "\(millis)")
            let read = SQLDateFormat.date(from: text)
            #expect(read.map(SQLDateFormat.string(from:)) == text, "\(text)")
        }
        #expect(SQLDateFormat.date(from: "2026-11-23T20:38:40Z").map(SQLDateFormat.string(from:)) == "2026-11-23T20:38:40.000Z", "other ISO 8601 still reads")
        #expect(SQLDateFormat.date(from: "2026-02-30T00:00:00.000Z") == nil)
    }
}
