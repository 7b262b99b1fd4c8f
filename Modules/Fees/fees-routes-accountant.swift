import Core
import Foundation

/// `/api/v1/fees`: the accountant's routes (admins too), each one action.
enum FeesAccountantRoutes {
    static var all: [APIRoute] { [balances, statement, pay, refund, generate, aged, collections] }

    private static func decimal(_ minor: Int, _ digits: Int) -> Decimal { FeesRoutes.decimal(minor, digits) }

    // MARK: Balances and statements

    struct BalanceBody: Codable, Sendable {
        let studentId: String
        let grNumber: String
        let name: String
        let charged: Decimal
        let paid: Decimal
        let balance: Decimal
        let overdue: Decimal
    }

    struct BalancesBody: Codable, Sendable {
        let currency: String
        let data: [BalanceBody]
    }

    private static var balances: APIRoute {
        APIRoute(.get, "/api/v1/fees/balances", summary: "Every visible student's balance, owing first",
                 response: .of(BalancesBody.self)) { request in
            let result = try await request.run(FeeBalances.self, .init())
            let digits = result.minorDigits
            return try .json(BalancesBody(currency: result.currency, data: result.rows.map {
                BalanceBody(studentId: $0.studentID, grNumber: $0.grNumber, name: $0.name, charged: decimal($0.chargedMinor, digits),
                            paid: decimal($0.paidMinor, digits), balance: decimal($0.balanceMinor, digits), overdue: decimal($0.overdueMinor, digits))
            }))
        }
    }

    struct EntryBody: Codable, Sendable {
        let receiptNumber: String
        let kind: FeeEntryKind
        let amount: Decimal
        let method: FeePaymentMethod
        let date: APIDate
        let ofReceipt: Nullable<String>
        let reference: Nullable<String>

        init(_ entry: FeeEntry, _ digits: Int) {
            receiptNumber = entry.receipt
            kind = entry.kind
            amount = FeesRoutes.decimal(entry.amountMinor, digits)
            method = entry.method
            date = APIDate(entry.onDay)
            ofReceipt = Nullable(entry.ofReceipt)
            reference = Nullable(entry.reference)
        }
    }

    struct StatementBody: Codable, Sendable {
        let studentId: String
        let grNumber: String
        let name: String
        let currency: String
        let balance: Decimal
        let overdue: Decimal
        let invoices: [FeesRoutes.FeeItemBody]
        let entries: [EntryBody]
    }

    private static var statement: APIRoute {
        APIRoute(.get, "/api/v1/fees/students/:studentId", summary: "A student's statement: invoices, payments, refunds and balance",
                 response: .of(StatementBody.self)) { request in
            let account = try await request.run(StudentFeeAccount.self, .init(student: try request.parameter("studentId")))
            let digits = account.minorDigits
            return try .json(StatementBody(studentId: account.studentID, grNumber: account.grNumber, name: account.name, currency: account.currency,
                                           balance: decimal(account.balanceMinor, digits), overdue: decimal(account.overdueMinor, digits),
                                           invoices: account.invoices.map { FeesRoutes.FeeItemBody($0, account) },
                                           entries: account.entries.map { EntryBody($0, digits) }))
        }
    }

    // MARK: Payments and refunds

    struct EntryResultBody: Codable, Sendable {
        let entry: EntryBody
        let credit: Decimal
        let balance: Decimal
        let currency: String
    }

    struct NewPayment: Decodable {
        let studentId: String
        let amount: String
        let method: FeePaymentMethod
        let reference: String?
        let invoiceId: String?
    }

    private static var pay: APIRoute {
        APIRoute(.post, "/api/v1/fees/payments", summary: "Records a payment, allocated oldest due first (or to invoice_id first)",
                 body: .object([("student_id", .id), ("amount", .string(maxLength: 20)), ("method", .values(of: FeePaymentMethod.self)),
                                ("reference", .optional(.string(maxLength: 200))), ("invoice_id", .optional(.id))]),
                 status: 201, response: .of(EntryResultBody.self)) { request in
            let body = try request.decode(NewPayment.self)
            let result = try await request.run(RecordFeePayment.self, .init(student: body.studentId, amount: body.amount, method: body.method,
                                                                           reference: body.reference, invoice: body.invoiceId))
            return try await answer(result, request, status: 201)
        }
    }

    struct NewRefund: Decodable {
        let receiptNumber: String
        let amount: String?
        let kind: FeeEntryKind
        let reference: String?
    }

    private static var refund: APIRoute {
        APIRoute(.post, "/api/v1/fees/refunds", summary: "Refunds part of a payment, or reverses what is left of it (a new entry, never an edit)",
                 body: .object([("receipt_number", .string(maxLength: 20)), ("amount", .optional(.string(maxLength: 20))),
                                ("kind", .values(["REFUND", "REVERSAL"])), ("reference", .optional(.string(maxLength: 200)))]),
                 status: 201, response: .of(EntryResultBody.self)) { request in
            let body = try request.decode(NewRefund.self)
            let result = try await request.run(RefundFeePayment.self, .init(receipt: body.receiptNumber, amount: body.amount, kind: body.kind, reference: body.reference))
            return try await answer(result, request, status: 201)
        }
    }

    private static func answer(_ result: FeeEntryResult, _ request: APIRequest, status: Int) async throws -> APIResponse {
        let account = try await request.run(StudentFeeAccount.self, .init(student: result.entry.studentID))
        let digits = account.minorDigits
        return try .json(EntryResultBody(entry: EntryBody(result.entry, digits), credit: decimal(result.creditMinor, digits),
                                         balance: decimal(result.balanceMinor, digits), currency: account.currency), status: status)
    }

    // MARK: Generation and reports

    struct GenerateBody: Decodable {
        let schoolYear: String?
    }

    struct GeneratedBody: Codable, Sendable {
        let schoolYear: String
        let created: Int
        let students: Int
    }

    private static var generate: APIRoute {
        APIRoute(.post, "/api/v1/fees/generate", summary: "Charges every enrolled student the year's structures (only what is not charged yet)",
                 body: .object([("school_year", .optional(.string(maxLength: 40)))]),
                 response: .of(GeneratedBody.self)) { request in
            let body = try request.decode(GenerateBody.self)
            let result = try await request.run(GenerateInvoices.self, .init(schoolYear: body.schoolYear))
            return try .json(GeneratedBody(schoolYear: result.schoolYear, created: result.created, students: result.students))
        }
    }

    struct AgedBody: Codable, Sendable {
        let currency: String
        let current: Decimal
        let days30: Decimal
        let days60: Decimal
        let days90: Decimal
        let over90: Decimal
        let total: Decimal
        let overdueCount: Int
    }

    private static var aged: APIRoute {
        APIRoute(.get, "/api/v1/fees/aged", summary: "Aged receivables: owed by days past due",
                 response: .of(AgedBody.self)) { request in
            let aged = try await request.run(AgedReceivables.self, .init())
            let digits = aged.minorDigits, total = aged.total
            return try .json(AgedBody(currency: aged.currency, current: decimal(total.currentMinor, digits), days30: decimal(total.days30Minor, digits),
                                      days60: decimal(total.days60Minor, digits), days90: decimal(total.days90Minor, digits), over90: decimal(total.over90Minor, digits),
                                      total: decimal(total.totalMinor, digits), overdueCount: aged.overdueCount))
        }
    }

    struct CollectionBody: Codable, Sendable {
        let date: APIDate
        let method: FeePaymentMethod
        let payments: Int
        let paymentsAmount: Decimal
        let refundsAmount: Decimal
        let reversalsAmount: Decimal
        let netAmount: Decimal
    }

    struct CollectionsBody: Codable, Sendable {
        let currency: String
        let from: APIDate
        let to: APIDate
        let data: [CollectionBody]
    }

    private static var collections: APIRoute {
        APIRoute(.get, "/api/v1/fees/collections", summary: "Money in and out by day and method (from and to default to today)",
                 query: [APIParameter("from", .date), APIParameter("to", .date)],
                 response: .of(CollectionsBody.self)) { request in
            let from = try request.queryDate("from"), to = try request.queryDate("to")
            let report = try await request.run(FeeCollections.self, .init(from: from?.description, to: to?.description))
            let digits = report.minorDigits
            return try .json(CollectionsBody(currency: report.currency, from: APIDate(report.from), to: APIDate(report.to), data: report.rows.map {
                CollectionBody(date: APIDate($0.day), method: $0.method, payments: $0.payments, paymentsAmount: decimal($0.paymentsMinor, digits),
                               refundsAmount: decimal($0.refundsMinor, digits), reversalsAmount: decimal($0.reversalsMinor, digits), netAmount: decimal($0.netMinor, digits))
            }))
        }
    }
}
