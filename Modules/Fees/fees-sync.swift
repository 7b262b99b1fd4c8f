import Core
import Foundation

/// What fees share with offline apps: each student's account (balance and invoices), readable by
/// their guardians and by the school's accountants and administrators. Payments are never queued
/// offline: a receipt number is taken in the ledger's own transaction, so a payment is recorded
/// online or not at all.
///
/// Money is exact here as everywhere: whole minor units with the currency and its minor digits.
/// An invoice's `status` is as of the last change; the app tells overdue from `dueOn` itself.
enum FeesSync {
    /// Held by those who read every student's fees (accountants, administrators).
    static let everything = SyncScopeKey.other("fees", "all")

    /// Held by a student's guardians. Not `student:<id>`, which teachers hold too: teachers see no fees.
    static func family(_ studentID: String) -> SyncScopeKey { .other("fees-student", studentID) }

    static var entities: [SyncEntityType] { [account] }

    static let account = SyncEntityType(
        "fees.account",
        sources: [SyncSource(table: "fees_invoices", idColumn: "student_id"), SyncSource(table: "fees_entries", idColumn: "student_id")],
        load: { ids, context in
            let arguments: SQLArguments = ["ids": .text(SyncScope.json(ids))]
            let today = context.today.description
            var invoices: [String: [FeeInvoice]] = [:], currencies: [String: String] = [:]
            try context.database.forEachRow("""
                \(FeesLedger.invoiceSelect) WHERE i.school_id = :school_id AND i.student_id IN (SELECT value FROM json_each(:ids)) ORDER BY i.due_on, i.id
                """, arguments) { row in
                let invoice = FeesLedger.invoice(row, today: today)
                invoices[invoice.studentID, default: []].append(invoice)
                if let currency: String = row["currency"], !currency.isEmpty { currencies[invoice.studentID] = currency }
            }
            let entries = try FeesLedger.entryTotals(context.database, where: "student_id IN (SELECT value FROM json_each(:ids))", arguments)
            var result: [String: SyncEntity] = [:]
            for id in Set(invoices.keys).union(entries.keys) {
                let owed = invoices[id] ?? [], money = entries[id] ?? (0, 0)
                let charged = owed.reduce(0) { $0 + $1.amountMinor - $1.cancelledMinor }
                let currency = currencies[id]
                result[id] = SyncEntity(
                    data: ["studentId": .string(id), "currency": .optional(currency),
                           "minorDigits": currency.map { .int(FeesMoney.minorDigits(of: $0)) } ?? .null,
                           "chargedMinor": .int(charged), "paidMinor": .int(money.paid), "balanceMinor": .int(charged - money.paid + money.returned),
                           "invoices": .array(owed.map { invoice in
                               ["id": .string(invoice.id), "type": .string(invoice.type.rawValue), "label": .string(invoice.label),
                                "dueOn": .string(invoice.dueOn), "amountMinor": .int(invoice.amountMinor - invoice.cancelledMinor),
                                "lateFeeMinor": .int(invoice.lateFeeMinor), "paidMinor": .int(invoice.paidMinor),
                                "outstandingMinor": .int(max(0, invoice.outstandingMinor)), "status": .string(invoice.status.rawValue)]
                           })],
                    scopes: [family(id), everything])
            }
            return result
        },
        snapshot: { scope, after, limit, context in
            let filter = scope.contains(everything) ? "" : "AND student_id IN (SELECT value FROM json_each(:family))"
            return try context.database.fetchAll("""
                SELECT student_id FROM (SELECT student_id FROM fees_invoices WHERE school_id = :school_id
                                        UNION SELECT student_id FROM fees_entries WHERE school_id = :school_id) owing
                WHERE student_id > :after \(filter) ORDER BY student_id LIMIT :limit
                """, ["after": .text(after), "limit": .integer(Int64(limit)), "family": .text(scope.jsonIDs(of: "fees-student"))])
                .map { $0.string("student_id") }
        })

    /// Accountants and administrators read every account; a guardian their children's. A student's
    /// own balance stays online: whether they may see it is the school's setting
    /// (`fees.students-see-balance`), checked by the routes.
    static let scopes: SyncScopeRule = { principal, context in
        switch context.scope(for: FeesPermissions.read) {
        case .school:
            return [everything]
        case .linkedChildren:
            return try context.database.fetchAll("""
                SELECT DISTINCT student_id FROM students_v1_guardian_links WHERE school_id = :school_id AND guardian_user_id = :viewer
                """, ["viewer": .text(principal.userID)]).map { family($0.string("student_id")) }
        default:
            return []
        }
    }
}
