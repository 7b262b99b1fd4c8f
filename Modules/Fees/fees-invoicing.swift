import Core
import Foundation

/// Charges every enrolled student what the year's structures ask of them, once: running it again
/// adds only what is new (a structure added since, a student enrolled since).
public struct GenerateInvoices: Action {
    public struct Input: Codable, Sendable {
        public var schoolYear: String?
        public init(schoolYear: String? = nil) { self.schoolYear = schoolYear }
    }

    public struct Output: Codable, Sendable, Equatable {
        public let schoolYear: String
        public let created: Int
        public let students: Int
        public let totalMinor: Int
    }

    public static let id = "fees.generate"
    public static let permission = FeesPermissions.manage

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        _ = try FeesSchoolYear.named(input.schoolYear, context)
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        try context.database.serializeWriters(on: "fees.ledger")
        let year = try FeesSchoolYear.named(input.schoolYear, context)
        let prorate = try context.setting(FeesSettings.lateEnrolment) == "prorate"
        let structures = try FeesTargets.structures(of: year, context)
        let itemIDs = try itemIDs(of: year, context)
        let enrolled = try context.database.fetchAll("""
            SELECT e.student_id, e.class_id, e.enrolled_on, c.year_level_id FROM students_v1_enrolments e
            JOIN students_v1_students s ON s.school_id = e.school_id AND s.id = e.student_id
            JOIN students_v1_classes c ON c.school_id = e.school_id AND c.id = e.class_id
            WHERE e.school_id = :school_id AND e.school_year_id = :year AND s.archived_at IS NULL AND s.status IN ('ACTIVE', 'SUSPENDED')
            ORDER BY e.student_id
            """, ["year": .text(year.id)])
        var existing = Set<String>()
        try context.database.forEachRow("SELECT student_id, item_id, due_on FROM fees_invoices WHERE school_id = :school_id AND school_year_id = :year",
                                        ["year": .text(year.id)]) { existing.insert("\($0.string("student_id"))|\($0.string("item_id"))|\($0.string("due_on"))") }
        let discounts = try discounts(context)
        let currency = try FeesLedger.currency(context).code
        var created = 0, total = 0
        var charged = Set<String>()
        for student in enrolled {
            let studentID = student.string("student_id")
            let enrolledOn = CivilDate(student.string("enrolled_on")) ?? year.startsOn
            for structure in structures where applies(structure, to: student) {
                for (index, item) in structure.items.enumerated() {
                    guard let itemID = itemIDs["\(structure.id)|\(index)"], let first = CivilDate(item.dueOn) else { continue }
                    for due in year.dueDates(item.schedule, first: first) where !existing.contains("\(studentID)|\(itemID)|\(due)") {
                        guard let gross = charge(item, due: due, enrolledOn: enrolledOn, year: year, prorate: prorate), gross > 0 else { continue }
                        let discount = min(gross, (discounts[studentID] ?? []).reduce(0) { $0 + FeesAllocation.discount(on: gross, basisPoints: $1.0, fixed: $1.1) })
                        try context.database.insert(into: "fees_invoices", [
                            "id": .text(context.newOrderedID()), "student_id": .text(studentID), "item_id": .text(itemID), "school_year_id": .text(year.id),
                            "item_type": .text(item.type.rawValue), "label": .text(item.label), "due_on": .text(due.description),
                            "gross_minor": SQLValue(gross), "discount_minor": SQLValue(discount), "amount_minor": SQLValue(gross - discount),
                            "cancelled_minor": SQLValue(0), "currency": .text(currency), "created_at": SQLValue(context.now),
                        ])
                        existing.insert("\(studentID)|\(itemID)|\(due)")
                        created += 1
                        total += gross - discount
                        charged.insert(studentID)
                    }
                }
            }
        }
        context.auditDetail = "\(created) invoices for \(year.name)"
        return Output(schoolYear: year.name, created: created, students: charged.count, totalMinor: total)
    }

    /// What one installment charges a student: all of it, or for a late enrolment as the school
    /// sets (`prorate`: a once-a-year charge for the days left, nothing for an installment already due).
    func charge(_ item: FeeStructure.Item, due: CivilDate, enrolledOn: CivilDate, year: FeesSchoolYear, prorate: Bool) -> Int? {
        guard prorate, enrolledOn > due else { return item.amountMinor }
        guard item.schedule == .once else { return nil }
        return FeesMoney.prorated(item.amountMinor, remainingDays: year.endsOn.dayNumber - enrolledOn.dayNumber + 1, totalDays: year.days)
    }

    private func applies(_ structure: FeeStructure, to student: SQLRow) -> Bool {
        switch structure.target {
        case .school: true
        case .yearLevel: structure.targetID == student.string("year_level_id")
        case .classGroup: structure.targetID == student.string("class_id")
        case .student: structure.targetID == student.string("student_id")
        }
    }

    private func itemIDs(of year: FeesSchoolYear, _ context: ActionContext) throws -> [String: String] {
        var ids: [String: String] = [:]
        try context.database.forEachRow("""
            SELECT structure_id, position, id FROM fees_items
            WHERE school_id = :school_id AND structure_id IN (SELECT id FROM fees_structures WHERE school_id = :school_id AND school_year_id = :year)
            """, ["year": .text(year.id)]) { ids["\($0.string("structure_id"))|\($0.int("position"))"] = $0.string("id") }
        return ids
    }

    private func discounts(_ context: ActionContext) throws -> [String: [(Int?, Int?)]] {
        var discounts: [String: [(Int?, Int?)]] = [:]
        try context.database.forEachRow("SELECT student_id, basis_points, amount_minor FROM fees_discounts WHERE school_id = :school_id") { row in
            discounts[row.string("student_id"), default: []].append((row["basis_points"], row["amount_minor"]))
        }
        return discounts
    }
}

/// A student who leaves: what they still owe is cancelled (kept, marked cancelled), never deleted;
/// what they paid stays paid.
public struct CancelOpenFees: Action {
    public struct Input: Codable, Sendable {
        public var student: String
        public init(student: String) { self.student = student }
    }

    public struct Output: Codable, Sendable, Equatable {
        public let studentID: String
        public let cancelled: Int
        public let cancelledMinor: Int
    }

    public static let id = "fees.cancel-open"
    public static let permission = FeesPermissions.manage

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        _ = try FeesStudents.any(input.student, context)
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        try context.database.serializeWriters(on: "fees.ledger")
        let student = try FeesStudents.any(input.student, context)
        let open = try FeesLedger.invoices(of: student.id, context).filter { $0.outstandingMinor > 0 }
        guard !open.isEmpty else { throw FeesError.noOpenInvoices(student.grNumber) }
        for invoice in open {
            try context.database.execute("""
                UPDATE fees_invoices SET cancelled_minor = cancelled_minor + :amount, cancelled_at = :now WHERE school_id = :school_id AND id = :id
                """, ["amount": SQLValue(invoice.outstandingMinor), "now": SQLValue(context.now), "id": .text(invoice.id)])
        }
        let total = open.reduce(0) { $0 + $1.outstandingMinor }
        context.auditDetail = "cancelled \(open.count) open invoices of \(student.grNumber)"
        return Output(studentID: student.id, cancelled: open.count, cancelledMinor: total)
    }
}
