import Core
import Foundation

/// Aged receivables: what is owed, by how long past its due date (not yet due, 1-30, 31-60,
/// 61-90 and over 90 days), school-wide and per student.
public struct AgedReceivables: Action {
    public struct Input: Codable, Sendable {
        public init() {}
    }

    public struct Buckets: Codable, Sendable, Equatable {
        public var currentMinor = 0
        public var days30Minor = 0
        public var days60Minor = 0
        public var days90Minor = 0
        public var over90Minor = 0
        public var totalMinor: Int { currentMinor + days30Minor + days60Minor + days90Minor + over90Minor }

        mutating func add(_ amount: Int, daysLate: Int) {
            switch daysLate {
            case ...0: currentMinor += amount
            case 1...30: days30Minor += amount
            case 31...60: days60Minor += amount
            case 61...90: days90Minor += amount
            default: over90Minor += amount
            }
        }
    }

    public struct Row: Codable, Sendable, Equatable {
        public let grNumber: String
        public let name: String
        public let buckets: Buckets
    }

    public struct Output: Codable, Sendable, Equatable {
        public let currency: String
        public let minorDigits: Int
        public let total: Buckets
        public let overdueCount: Int
        public let students: [Row]
    }

    public static let id = "fees.aged"
    public static let permission = FeesPermissions.manage
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        let today = context.today
        let directory = try FeesDirectory.students(context)
        var total = Buckets(), perStudent: [String: Buckets] = [:], overdue = 0
        try context.database.forEachRow("\(FeesLedger.invoiceSelect) WHERE i.school_id = :school_id") { row in
            let invoice = FeesLedger.invoice(row, today: today.description)
            guard invoice.outstandingMinor > 0, let due = CivilDate(invoice.dueOn) else { return }
            let late = today.dayNumber - due.dayNumber
            total.add(invoice.outstandingMinor, daysLate: late)
            perStudent[invoice.studentID, default: Buckets()].add(invoice.outstandingMinor, daysLate: late)
            if late > 0 { overdue += 1 }
        }
        let (code, digits) = try FeesLedger.currency(context)
        let rows = perStudent.map { id, buckets in Row(grNumber: directory[id]?.grNumber ?? "", name: directory[id]?.name ?? "", buckets: buckets) }
            .sorted { ($0.buckets.totalMinor, $1.grNumber) > ($1.buckets.totalMinor, $0.grNumber) }
        return Output(currency: code, minorDigits: digits, total: total, overdueCount: overdue, students: rows)
    }
}

/// Money in and out by day and method between two days (both included): the collections report
/// and the daily journal an accounting package takes in.
public struct FeeCollections: Action {
    public struct Input: Codable, Sendable {
        /// `YYYY-MM-DD`; both default to today.
        public var from: String?
        public var to: String?
        public init(from: String? = nil, to: String? = nil) {
            self.from = from
            self.to = to
        }
    }

    public struct Row: Codable, Sendable, Equatable {
        public let day: String
        public let method: FeePaymentMethod
        public let payments: Int
        public let paymentsMinor: Int
        public let refundsMinor: Int
        public let reversalsMinor: Int
        public let firstReceipt: String
        public let lastReceipt: String
        public var netMinor: Int { paymentsMinor - refundsMinor - reversalsMinor }
    }

    public struct Output: Codable, Sendable, Equatable {
        public let currency: String
        public let minorDigits: Int
        public let from: String
        public let to: String
        public let rows: [Row]
    }

    public static let id = "fees.collections"
    public static let permission = FeesPermissions.manage
    public static let isReadOnly = true

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        _ = try days(input, context)
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        let (from, to) = try days(input, context)
        let rows = try context.database.fetchAll("""
            SELECT on_day, method, kind, COUNT(*) AS entries, SUM(amount_minor) AS total,
                   MIN(receipt_year * 1000000 + receipt_seq) AS first_receipt, MAX(receipt_year * 1000000 + receipt_seq) AS last_receipt
            FROM fees_entries WHERE school_id = :school_id AND on_day >= :from AND on_day <= :to
            GROUP BY on_day, method, kind ORDER BY on_day, method
            """, ["from": .text(from.description), "to": .text(to.description)])
        let grouped = Dictionary(grouping: rows) { "\($0.string("on_day"))|\($0.string("method"))" }
        let (code, digits) = try FeesLedger.currency(context)
        return Output(currency: code, minorDigits: digits, from: from.description, to: to.description, rows: grouped.keys.sorted().compactMap { key -> Row? in
            guard let group = grouped[key], let first = group.first else { return nil }
            func sum(_ kind: FeeEntryKind) -> Int { group.filter { $0.string("kind") == kind.rawValue }.reduce(0) { $0 + $1.int("total") } }
            let firstReceipt = group.map { $0.int("first_receipt") }.min() ?? 0, lastReceipt = group.map { $0.int("last_receipt") }.max() ?? 0
            return Row(day: first.string("on_day"), method: FeePaymentMethod(rawValue: first.string("method")) ?? .cash,
                       payments: group.filter { $0.string("kind") == FeeEntryKind.payment.rawValue }.reduce(0) { $0 + $1.int("entries") },
                       paymentsMinor: sum(.payment), refundsMinor: sum(.refund), reversalsMinor: sum(.reversal),
                       firstReceipt: FeesLedger.receiptText(year: firstReceipt / 1_000_000, sequence: firstReceipt % 1_000_000),
                       lastReceipt: FeesLedger.receiptText(year: lastReceipt / 1_000_000, sequence: lastReceipt % 1_000_000))
        })
    }

    private static func day(_ text: String) throws -> CivilDate {
        guard let day = CivilDate(text) else { throw FeesError.invalidDate(text) }
        return day
    }

    private func days(_ input: Input, _ context: ActionContext) throws -> (CivilDate, CivilDate) {
        let from = try input.from.map(Self.day) ?? context.today
        let to = try input.to.map(Self.day) ?? from
        guard from <= to, to.dayNumber - from.dayNumber <= 366 else { throw FeesError.invalidDate("\(from) \(to)") }
        return (from, to)
    }
}
