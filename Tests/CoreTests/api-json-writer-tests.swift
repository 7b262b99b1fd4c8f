@testable import Core
import Foundation
import PropertyBased
import Testing

/// The API's streaming JSON writer must say exactly what Foundation's `JSONEncoder` (with the
/// API's settings) says: both outputs are parsed and compared as JSON values.
@Suite("API JSON writer: the same JSON as JSONEncoder")
struct APIJSONWriterTests {
    @Test("records, optionals, nesting, enums, dates, numbers and dictionaries, in both key styles")
    func sameAsJSONEncoder() throws {
        let record = Record.sample
        try expectSame(record)
        try expectSame([record, Record.empty])
        try expectSame(Page(data: [record], total: 1, pageNumber: 1, perPage: 20))
        try expectSame(Empty())
        try expectSame("top-level text")
        try expectSame([1.5, 0.1, 1e-7, 1e21, -0.0, 123_456_789.125])
        try expectSame(Optional<Int>.none)
        try expectSame(Child(name: "subclass", parentName: "base"))
        try expectSame(["nestedEnum": Shape.circle(radius: 2), "otherShape": .square(side: 1, label: nil)])
        try expectSame([3: "three", 1: "one"])
        try expectSame(["outerKey": ["innerKey": 1]])
        try expectSame([[String: Int]]())
    }

    @Test("keys are converted to snake_case by JSONEncoder's own rule")
    func keyRule() throws {
        let keys = ["sectionId", "myURLProperty", "userID", "URL", "aB", "a", "already_snake", "HTTPServer", "x1Y2", "ÉcoleName",
                    "étudiantNom", "ABCd", "_leading", "trailing_", "with2Numbers", "اسمالطالب", "perPage", "photoUrl", "iOSVersion", "AbcDEF", "x\u{10}Ȳ\u{65F}ƥ", "caféÉtude"]
        for key in keys {
            let data = try APIJSON.encoder(.snakeCase).encode(OneKey(name: key))
            let expected = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Int]).keys.first
            #expect(SnakeCaseKeys.convert(key) == expected, "\(key)")
        }
    }

    /// Names as a Swift property could spell them: letters of any case and script, digits, `_`.
    static let propertyName = Gen.oneOf(Gen.character(in: "a"..."z"), Gen.character(in: "A"..."Z"), Gen.character(in: "0"..."9"),
                                        Gen.character(in: "\u{C0}"..."\u{24F}"), Gen.character(in: "\u{620}"..."\u{64A}"), Gen.always("_"))
        .string(of: 1...12)

    @Test("text of every kind comes out as JSONEncoder writes it, as a value and as a dictionary's key; names as keys")
    func generatedText() async {
        await propertyCheck(count: 300, input: InputPropertyTests.anyText, InputPropertyTests.anyText, Self.propertyName) { key, value, name in
            #expect(throws: Never.self) { try expectSame([key: value]) }
            #expect(throws: Never.self) { try expectSame(OneKey(name: name)) }
            #expect(throws: Never.self) { try expectSame(Line(studentId: value, studentName: key, status: nil, notes: value)) }
        }
    }

    @Test("NaN and infinity are refused, as JSONEncoder refuses them")
    func nonFinite() {
        for number in [Double.nan, .infinity, -.infinity] {
            #expect(throws: EncodingError.self) { try APIJSONWriter.encode(["score": number], keys: .snakeCase) }
        }
        #expect(throws: EncodingError.self) { try APIJSONWriter.encode([Float.nan], keys: .camelCase) }
    }

    /// Two parsed JSON values are the same: objects key by key (in any order), arrays in order.
    private static func same(_ left: Any, _ right: Any) -> Bool {
        switch (left, right) {
        case let (left as [String: Any], right as [String: Any]):
            left.count == right.count && left.allSatisfy { key, value in right[key].map { same(value, $0) } ?? false }
        case let (left as [Any], right as [Any]):
            left.count == right.count && zip(left, right).allSatisfy { same($0, $1) }
        case let (left as String, right as String): left == right
        case (is NSNull, is NSNull): true
        case let (left as NSNumber, right as NSNumber): left == right
        default: false
        }
    }

    private func expectSame<T: Encodable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for style in [APIKeyStyle.snakeCase, .camelCase] {
            let reference = try APIJSON.encoder(style).encode(value)
            let expected = try JSONSerialization.jsonObject(with: reference, options: .fragmentsAllowed)
            let written = try APIJSONWriter.encode(value, keys: style)
            let actual = try JSONSerialization.jsonObject(with: written, options: .fragmentsAllowed)
            #expect(Self.same(expected, actual),
                    "wrote \(String(decoding: written, as: UTF8.self)), JSONEncoder \(String(decoding: reference, as: UTF8.self))", sourceLocation: sourceLocation)
        }
    }
}

private struct Record: Encodable {
    var id: String
    var givenName: String
    var photoURL: String?
    var dateOfBirth: Date
    var score: Double?
    var rank: Int
    var tiny: Int8
    var huge: UInt64
    var ratio: Float
    var active: Bool
    var tags: [String?]
    var counts: [String: Int]
    var section: Section?
    var grid: [[Int]]
    var status: Status
    var raw: Data

    struct Section: Encodable {
        var sectionId: String
        var gradeLevel: String?
    }

    enum Status: String, Encodable { case present = "PRESENT", absent = "ABSENT" }

    static let sample = Record(
        id: "a/b\"c\\d", givenName: "فاطمة \u{1} \n\t\r 🎒", photoURL: nil, dateOfBirth: Date(timeIntervalSince1970: 1_700_000_000.123),
        score: 87.25, rank: -(1 << 53), tiny: -8, huge: 1 << 53, ratio: 0.1, active: true, tags: ["x", nil, "z"],
        counts: ["presentDays": 3, "lateDays": 1], section: Section(sectionId: "7A", gradeLevel: nil), grid: [[1, 2], [], [3]],
        status: .absent, raw: Data([0, 1, 2, 250]))
    static let empty = Record(
        id: "", givenName: "", photoURL: "https://example.org/a.png", dateOfBirth: Date(timeIntervalSince1970: 0), score: nil, rank: 0, tiny: 0,
        huge: 0, ratio: 2, active: false, tags: [], counts: [:], section: nil, grid: [], status: .present, raw: Data())
}

private struct Page: Encodable {
    var data: [Record]
    var total: Int
    var pageNumber: Int
    var perPage: Int
}

private struct Empty: Encodable {}

/// An object with one key spelled at run time (a dictionary's keys are never converted).
private struct OneKey: Encodable {
    let name: String

    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(1, forKey: Key(stringValue: name))
    }
}

private struct Line: Encodable {
    let studentId: String
    let studentName: String
    let status: String?
    let notes: String?
}

private enum Shape: Encodable {
    case circle(radius: Double)
    case square(side: Int, label: String?)
}

private class Parent: Encodable {
    let parentName: String
    init(parentName: String) { self.parentName = parentName }
}

private final class Child: Parent {
    let name: String
    init(name: String, parentName: String) {
        self.name = name
        super.init(parentName: parentName)
    }

    enum CodingKeys: String, CodingKey { case name }

    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try super.encode(to: encoder)
    }
}
