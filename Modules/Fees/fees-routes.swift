import Core
import Foundation

/// The fees part of the mobile API (contract §10, with the access checks the web app lacked: a
/// guardian sees their children, a student themself where the school allows it, the accountant
/// and admins everyone, anyone else nothing) and the accountant's routes under `/api/v1/fees`.
enum FeesRoutes {
    static var all: [APIRoute] { [mobileFees, mobileSummary, childFees, FeesReminderRoutes.reminders, FeesClassRoutes.classes] + FeesAccountantRoutes.all }

    /// One invoice as the apps list it; amounts are decimal numbers in the school's currency.
    struct FeeItemBody: Codable, Sendable {
        let id: String
        let feeType: FeeItemType
        let amount: Decimal
        let paidAmount: Decimal
        let dueDate: APIDate
        let paymentDate: Nullable<APIDate>
        let paymentMethod: Nullable<FeePaymentMethod>
        let status: FeeInvoiceStatus
        let lateFee: Decimal
        let discount: Decimal
        let receiptNumber: Nullable<String>
        let remarks: Nullable<String>

        init(_ invoice: FeeInvoice, _ account: FeeAccount) {
            let payment = account.paidBy[invoice.id].flatMap { receipt in account.entries.first { $0.receipt == receipt } }
            id = invoice.id
            feeType = invoice.type
            amount = FeesRoutes.decimal(invoice.amountMinor - invoice.lateFeeMinor - invoice.cancelledMinor, account.minorDigits)
            paidAmount = FeesRoutes.decimal(invoice.paidMinor, account.minorDigits)
            dueDate = APIDate(invoice.dueOn)
            paymentDate = Nullable(payment.map { APIDate($0.onDay) })
            paymentMethod = Nullable(payment?.method)
            status = invoice.status
            lateFee = FeesRoutes.decimal(invoice.lateFeeMinor, account.minorDigits)
            discount = FeesRoutes.decimal(invoice.discountMinor, account.minorDigits)
            receiptNumber = Nullable(payment?.receipt)
            remarks = Nullable(invoice.label)
        }
    }

    static func decimal(_ minor: Int, _ digits: Int) -> Decimal {
        Decimal(string: FeesMoney.format(minor, digits: digits), locale: Locale(identifier: "en_US_POSIX")) ?? 0
    }

    private static var mobileFees: APIRoute {
        APIRoute(.get, "/api/mobile/fees", summary: "A student's fees (the caller's own child or self by default; guardians their children, accountants and admins anyone)",
                 query: APIParameter.paging + [APIParameter("student_id", .id), APIParameter("status", .values(of: FeeInvoiceStatus.self))],
                 response: .of(APIPage<FeeItemBody>.self)) { request in
            try await page(request, student: try request.queryText("student_id"), childOnly: false)
        }
    }

    private static var childFees: APIRoute {
        APIRoute(.get, "/api/mobile/guardian/children/:childId/fees", summary: "One of the caller's children's fees (guardians only)",
                 query: APIParameter.paging + [APIParameter("status", .values(of: FeeInvoiceStatus.self))], response: .of(APIPage<FeeItemBody>.self)) { request in
            try await page(request, student: try request.parameter("childId"), childOnly: true)
        }
    }

    private static func page(_ request: APIRequest, student: String?, childOnly: Bool) async throws -> APIResponse {
        let paging = try request.paging(defaultPerPage: 30)
        let status = try request.queryEnum("status", as: FeeInvoiceStatus.self)
        let account = try await request.run(StudentFeeAccount.self, .init(student: student, childOnly: childOnly))
        let invoices = account.invoices.filter { status == nil || $0.status == status }
        let shown = invoices.dropFirst(paging.offset).prefix(paging.perPage)
        return try .json(APIPage(data: shown.map { FeeItemBody($0, account) }, total: invoices.count, paging: paging))
    }

    struct SummaryBody: Codable, Sendable {
        let totalAmount: Decimal
        let totalPaid: Decimal
        let totalPending: Decimal
        let totalRecords: Int
        let overdueCount: Int
        let paidCount: Int
        let pendingCount: Int
    }

    private static var mobileSummary: APIRoute {
        APIRoute(.get, "/api/mobile/fees/summary/:studentId", summary: "A student's fee totals (same access as the fees list)", response: .of(SummaryBody.self)) { request in
            let account = try await request.run(StudentFeeAccount.self, .init(student: try request.parameter("studentId")))
            let live = account.invoices.filter { $0.status != .cancelled }
            let digits = account.minorDigits
            return try .json(SummaryBody(
                totalAmount: decimal(live.reduce(0) { $0 + $1.amountMinor - $1.cancelledMinor }, digits),
                totalPaid: decimal(live.reduce(0) { $0 + $1.paidMinor }, digits),
                totalPending: decimal(live.reduce(0) { $0 + max($1.outstandingMinor, 0) }, digits),
                totalRecords: live.count, overdueCount: live.filter { $0.status == .overdue }.count,
                paidCount: live.filter { $0.status == .paid }.count, pendingCount: live.filter { [.pending, .partial].contains($0.status) }.count))
        }
    }
}
