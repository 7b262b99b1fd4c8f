@testable import Core
import Foundation
import PropertyBased
import Testing

/// The pull reads stored payloads back with a hand-written parser (`APIValueParser`): for any
/// text it reads it must give what `JSONDecoder` gives for the same text. It refuses more:
/// Foundation's parser also takes a trailing comma (`[1,]`) or a NUL before a value.
@Suite("Stored JSON read back by hand: the same values as JSONDecoder")
struct APIValueParserTests {
    /// A value of every kind, up to three levels deep, drawn from `random`: texts of every kind
    /// (controls, quotes, Arabic), integers at their limits, doubles whole and not.
    static func value(_ random: inout DemoRandom, depth: Int = 0) -> APIValue {
        let kinds = depth < 3 ? 8 : 6
        switch random.next() % UInt64(kinds) {
        case 0: return .null
        case 1: return .bool(random.next() % 2 == 0)
        case 2: return .int(random.pick([Int.min, Int.max, 0, -1, Int(truncatingIfNeeded: random.next()), Int(random.next() % 2_000) - 1_000]))
        case 3: return .double(random.pick([0.1, 1e-7, 1e21, -0.0, 2.0, 123_456_789.125, 1.7976931348623157e308,
                                            Double(Int(truncatingIfNeeded: random.next() % 2_000_000)) / 1_000 - 999.5]))
        case 4, 5: return .string(text(&random))
        case 6: return .array((0..<random.next() % 5).map { _ in value(&random, depth: depth + 1) })
        default:
            return .object(Dictionary((0..<random.next() % 5).map { _ in (text(&random), value(&random, depth: depth + 1)) }, uniquingKeysWith: { _, last in last }))
        }
    }

    static func text(_ random: inout DemoRandom) -> String {
        let pieces = ["a", "Z", "7", " ", "\"", "\\", "/", "\n", "\r", "\t", "\u{0}", "\u{1B}", "\u{7F}", "\u{2028}", "é", "ع", "ي", "😀", "{", "]", ":", ",", "e", "-"]
        return (0..<random.next() % 12).map { _ in random.pick(pieces) }.joined()
    }

    @Test("generated values read back as JSONDecoder reads them, from the recorder's text and from JSONEncoder's pretty text")
    func generatedValues() async {
        await propertyCheck(count: 500, input: Gen.int(in: 0...Int(UInt32.max))) { seed in
            var random = DemoRandom(seed: UInt64(seed))
            let value = Self.value(&random)
            let pretty = String(decoding: (try? Self.prettyEncoder.encode(value)) ?? Data(), as: UTF8.self)
            for text in [value.jsonText, pretty] {
                let decoded = try? Self.decoded(text)
                #expect(decoded != nil, "\(text)")
                #expect((try? APIValueParser.parse(text)) == decoded, "\(text)")
            }
        }
    }

    @Test("escapes, surrogate pairs, numbers at the edges and whitespace read as JSONDecoder reads them")
    func edges() throws {
        let texts = [
            #"{"a\"b":"\\\/\b\f\n\r\t\u0000\u00e9\u0627\ud83d\ude00"}"#, "[1.0, 1e2, 1E-2, -0, 0.5e1, 12345678901234567890, 9007199254740993, -9223372036854775808]",
            " \n\t{ } ", "[[[]],{}]", #""plain""#, "true", "null", "-1.5e+3", "9223372036854775807", "9223372036854775808",
            #"{"a":1,"a":2}"#, "\"\u{7F}\"", #"["عربي", "ok"]"#,
        ]
        for text in texts {
            #expect(try APIValueParser.parse(text) == Self.decoded(text), "\(text)")
        }
    }

    @Test("text that is not JSON is refused with DecodingError, however deep")
    func refusals() {
        let texts = ["", " ", "{", "}", "[1,]", "[,1]", #"{"a"1}"#, #"{"a":}"#, #"{a:1}"#, "01", "1.", ".5", "-", "+1", "1e", "1e+",
                     #""\x""#, #""\u12""#, #""\u12G4""#, "tru", "nul", "1 2", "\"\u{01}\"", "\"open", "1E400", "NaN", "[1]]", #"{"a":1}x"#]
        for text in texts {
            #expect(throws: DecodingError.self, "\(text)") { try APIValueParser.parse(text) }
        }
        let deep = String(repeating: "[", count: APIValueParser.maximumDepth + 1) + String(repeating: "]", count: APIValueParser.maximumDepth + 1)
        #expect(throws: DecodingError.self) { try APIValueParser.parse(deep) }
    }

    @Test("any text: what the parser reads, JSONDecoder reads the same; what JSONDecoder refuses, the parser refuses")
    func anyText() async {
        let jsonish = Gen<String?>.element(of: ["{", "}", "[", "]", ",", ":", "\"", "\\", "u", "0", "1", "-", ".", "e", "a", " ", "true", "null", "\\u00e9"])
            .map { $0 ?? "" }.array(of: 0...10).map { $0.joined() }
        await propertyCheck(count: 500, input: Gen.oneOf(jsonish, InputPropertyTests.anyText)) { text in
            let expected = try? Self.decoded(text)
            if let actual = try? APIValueParser.parse(text) {
                #expect(actual == expected, "\(text.debugDescription)")
            }
        }
    }

    static let prettyEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .withoutEscapingSlashes]
        return encoder
    }()

    static func decoded(_ text: String) throws -> APIValue {
        try JSONDecoder().decode(APIValue.self, from: Data(text.utf8))
    }
}
