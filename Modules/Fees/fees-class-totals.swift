import Core
import Foundation
import Students

/// Per-class totals for the accountant: for each class of the current school year, its students'
/// charges, payments, what they still owe and what of it is overdue. Students in no class this
/// year are one row of their own, so the rows add up to the school's balances.
public struct FeeClassTotals: Action {
    public struct Input: Codable, Sendable { public init() {} }

    public struct Row: Codable, Sendable, Equatable {
        /// Nil for students in no class this year.
        public let classID: String?
        public let classCode: String?
        public let className: LocalizedText?
        public let students: Int
        public let chargedMinor: Int
        public let paidMinor: Int
        public let balanceMinor: Int
        public let overdueMinor: Int
    }

    public struct Output: Codable, Sendable, Equatable {
        public let currency: String
        public let minorDigits: Int
        public let rows: [Row]
    }

    public static let id = "fees.class-totals"
    public static let permission = FeesPermissions.manage
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        let students = try Roster.visibleStudents(context)
        let balances = try FeeBalances.rows(of: students.map(FeesStudent.init), context)
        let classOf = Dictionary(students.map { ($0.id, $0) }) { first, _ in first }
        let groups = Dictionary(grouping: balances.rows) { classOf[$0.studentID]?.classID ?? "" }
        let rows = groups.map { classID, members -> Row in
            let student = members.lazy.compactMap { classOf[$0.studentID] }.first
            return Row(classID: classID.isEmpty ? nil : classID, classCode: classID.isEmpty ? nil : student?.classCode,
                       className: classID.isEmpty ? nil : student?.className, students: members.count,
                       chargedMinor: members.reduce(0) { $0 + $1.chargedMinor }, paidMinor: members.reduce(0) { $0 + $1.paidMinor },
                       balanceMinor: members.reduce(0) { $0 + $1.balanceMinor }, overdueMinor: members.reduce(0) { $0 + $1.overdueMinor })
        }
        // Classes by code, the students in no class last.
        return Output(currency: balances.currency, minorDigits: balances.minorDigits,
                      rows: rows.sorted { ($0.classCode ?? "\u{10FFFF}") < ($1.classCode ?? "\u{10FFFF}") })
    }
}
