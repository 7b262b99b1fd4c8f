import Core
import Foundation

/// `GET /api/v1/fees/classes`: the accountant's totals per class (`FeeClassTotals`).
enum FeesClassRoutes {
    /// A class's fields are null, not left out, for the students in no class.
    struct Row: Codable, Sendable {
        let classId: Nullable<String>
        let classCode: Nullable<String>
        let className: Nullable<String>
        let students: Int
        let charged: Decimal
        let paid: Decimal
        let balance: Decimal
        let overdue: Decimal
    }

    struct Body: Codable, Sendable {
        let currency: String
        let data: [Row]
    }

    static var classes: APIRoute {
        APIRoute(.get, "/api/v1/fees/classes", summary: "Charged, paid, owed and overdue per class of this school year; students in no class are the row without a class",
                 response: .of(Body.self)) { request in
            let totals = try await request.run(FeeClassTotals.self, .init())
            func decimal(_ minor: Int) -> Decimal { FeesRoutes.decimal(minor, totals.minorDigits) }
            return try .json(Body(currency: totals.currency, data: totals.rows.map {
                Row(classId: Nullable($0.classID), classCode: Nullable($0.classCode), className: Nullable($0.className?.text(in: request.language)), students: $0.students,
                    charged: decimal($0.chargedMinor), paid: decimal($0.paidMinor), balance: decimal($0.balanceMinor), overdue: decimal($0.overdueMinor))
            }))
        }
    }
}
