import Core
import Foundation

/// `GET /api/v1/fees/classes`: the accountant's totals per class (`FeeClassTotals`).
enum FeesClassRoutes {
    struct Row: Encodable, Sendable {
        let classId: String?
        let classCode: String?
        let className: String?
        let students: Int
        let charged: Decimal
        let paid: Decimal
        let balance: Decimal
        let overdue: Decimal

        enum CodingKeys: String, CodingKey { case classId, classCode, className, students, charged, paid, balance, overdue }

        /// The class's fields as null, not left out, for the students in no class.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(classId, forKey: .classId)
            try container.encode(classCode, forKey: .classCode)
            try container.encode(className, forKey: .className)
            try container.encode(students, forKey: .students)
            try container.encode(charged, forKey: .charged)
            try container.encode(paid, forKey: .paid)
            try container.encode(balance, forKey: .balance)
            try container.encode(overdue, forKey: .overdue)
        }
    }

    struct Body: Encodable, Sendable {
        let currency: String
        let data: [Row]
    }

    static var classes: APIRoute {
        APIRoute(.get, "/api/v1/fees/classes", summary: "Charged, paid, owed and overdue per class of this school year; students in no class are the row without a class",
                 response: .object([("currency", .text), ("data", .array(.object([
                     ("class_id", .nullable(.id)), ("class_code", .nullable(.text)), ("class_name", .nullable(.text)), ("students", .integer(minimum: 0)),
                     ("charged", .number), ("paid", .number), ("balance", .number), ("overdue", .number),
                 ])))])) { request in
            let totals = try await request.run(FeeClassTotals.self, .init())
            func decimal(_ minor: Int) -> Decimal { FeesRoutes.decimal(minor, totals.minorDigits) }
            return try .json(Body(currency: totals.currency, data: totals.rows.map {
                Row(classId: $0.classID, classCode: $0.classCode, className: $0.className?.text(in: request.language), students: $0.students,
                    charged: decimal($0.chargedMinor), paid: decimal($0.paidMinor), balance: decimal($0.balanceMinor), overdue: decimal($0.overdueMinor))
            }))
        }
    }
}
