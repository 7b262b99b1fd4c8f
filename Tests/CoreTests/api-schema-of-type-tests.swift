@testable import Core
import Foundation
import Testing

/// `APISchema.of`: a body's schema read from its own type, so the OpenAPI document cannot drift
/// from what a route sends.
@Suite("Schemas read from types")
struct APISchemaOfTypeTests {
    enum Colour: String, Codable, CaseIterable { case red = "RED", green = "GREEN" }

    struct Line: Codable {
        let amount: Decimal
        let onDay: APIDate
    }

    struct Body: Codable {
        let studentId: String
        let count: Int
        let ratio: Double
        let active: Bool
        let at: Date
        let day: CivilDate
        let colour: Colour
        let note: String?
        let receipt: Nullable<String>
        let lines: [Line]
        let extra: APIValue
    }

    @Test("every kind of field, named as the route writes it, in the type's order")
    func fields() {
        let schema = APISchema.of(Body.self).json
        let expected = APISchema.object([
            ("student_id", .text), ("count", .integer()), ("ratio", .number), ("active", .boolean), ("at", .dateTime), ("day", .date),
            ("colour", .values(["RED", "GREEN"])), ("note", .optional(.text)), ("receipt", .nullable(.text)),
            ("lines", .array(.object([("amount", .number), ("on_day", .date)]))), ("extra", .anyObject),
        ]).json
        #expect(schema == expected)
        #expect(Self.propertyOrder(of: APISchema.of(Body.self)) == ["student_id", "count", "ratio", "active", "at", "day", "colour", "note",
                                                                      "receipt", "lines", "extra"])
    }

    @Test("camelCase routes keep the property names; a page names its own keys")
    func keyStyles() {
        #expect(Self.propertyOrder(of: APISchema.of(Line.self, keys: .camelCase)) == ["amount", "onDay"])
        #expect(Self.propertyOrder(of: APISchema.of(APIPage<Line>.self)) == ["data", "total", "page", "per_page"])
    }

    @Test("what the schema says is what the encoder writes, on generated bodies")
    func agreesWithTheEncoder() throws {
        for seed in 0..<20 {
            let body = Body(studentId: "s\(seed)", count: seed, ratio: Double(seed) / 3, active: seed.isMultiple(of: 2),
                            at: Date(timeIntervalSince1970: Double(seed) * 86_400), day: CivilDate(dayNumber: 20_000 + seed),
                            colour: seed.isMultiple(of: 3) ? .red : .green, note: seed.isMultiple(of: 2) ? nil : "n",
                            receipt: Nullable(seed.isMultiple(of: 5) ? nil : "R-\(seed)"),
                            lines: (0..<(seed % 3)).map { Line(amount: Decimal($0), onDay: APIDate("2026-12-0\($0 + 1)")) }, extra: .object(["k": .int(seed)]))
            let written = try JSONSerialization.jsonObject(with: APIJSON.encoder(.snakeCase).encode(body)) as? [String: Any] ?? [:]
            let schema = APISchema.of(Body.self)
            guard case .object(let properties) = schema else { Issue.record("not an object"); return }
            let required = Set(properties.filter { if case .optional = $0.1 { false } else { true } }.map(\.0))
            #expect(required.isSubset(of: Set(written.keys)), "every required key is written (seed \(seed))")
            #expect(Set(written.keys).isSubset(of: Set(properties.map(\.0))), "no key is written that the schema lacks (seed \(seed))")
            #expect(written["receipt"] is NSNull == body.receipt.value.map { _ in false } ?? true, "a null receipt is written as null")
        }
    }

    /// A body whose decoding refuses every value cannot say its shape.
    struct Refusing: Decodable {
        init(from decoder: any Decoder) throws {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "never"))
        }
    }

    @Test("a type that cannot be read is named as such, not guessed")
    func unreadable() {
        #expect("\(APISchema.of(Refusing.self).json)".contains("unreadable:Refusing"))
        #expect(!"\(APISchema.of(Line.self).json)".contains("unreadable:"))
    }

    static func propertyOrder(of schema: APISchema) -> [String] {
        guard case .object(let properties) = schema else { return [] }
        return properties.map(\.0)
    }
}
