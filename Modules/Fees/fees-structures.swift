import Core
import Foundation

/// Adds a fee structure: items a school year charges the whole school, a year level, a class or one student.
public struct AddFeeStructure: Action {
    public struct Input: Codable, Sendable {
        public var name: String
        /// The school year's name (`2026-2027`) or id; the current year when left out.
        public var schoolYear: String?
        public var target: FeeTargetKind
        /// The year level's or class's code, or the student's GR number or id; none for the whole school.
        public var targetCode: String?
        public var items: [FeeItem]

        public init(name: String, schoolYear: String? = nil, target: FeeTargetKind = .school, targetCode: String? = nil, items: [FeeItem]) {
            self.name = name
            self.schoolYear = schoolYear
            self.target = target
            self.targetCode = targetCode
            self.items = items
        }
    }

    public static let id = "fees.structure.add"
    public static let permission = FeesPermissions.manage

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        _ = try resolved(input, context)
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> FeeStructure {
        let (year, targetID, items) = try resolved(input, context)
        let id = context.newID()
        try context.database.insert(into: "fees_structures", [
            "id": .text(id), "name": .text(input.name.trimmingCharacters(in: .whitespaces)), "school_year_id": .text(year.id),
            "target_kind": .text(input.target.rawValue), "target_id": SQLValue(targetID),
            "created_by": .text(context.principal.userID), "created_at": SQLValue(context.now),
        ])
        for (position, item) in items.enumerated() {
            try context.database.insert(into: "fees_items", [
                "id": .text(context.newID()), "structure_id": .text(id), "position": SQLValue(position), "item_type": .text(item.type.rawValue),
                "label": .text(item.label), "amount_minor": SQLValue(item.amountMinor), "schedule": .text(item.schedule.rawValue), "due_on": .text(item.dueOn),
            ])
        }
        context.auditDetail = "structure \(input.name) for \(year.name), \(items.count) items"
        return FeeStructure(id: id, name: input.name.trimmingCharacters(in: .whitespaces), schoolYear: year.name, target: input.target,
                            targetID: targetID, items: items)
    }

    private func resolved(_ input: Input, _ context: ActionContext) throws -> (FeesSchoolYear, String?, [FeeStructure.Item]) {
        guard (1...200).contains(input.name.trimmingCharacters(in: .whitespaces).count) else { throw FeesError.invalidName }
        guard !input.items.isEmpty, input.items.count <= 50 else { throw FeesError.noItems }
        let year = try FeesSchoolYear.named(input.schoolYear, context)
        let targetID = try FeesTargets.id(of: input.target, code: input.targetCode, year: year, context)
        let items = try input.items.map { item -> FeeStructure.Item in
            let label = item.label.trimmingCharacters(in: .whitespaces)
            guard (1...200).contains(label.count) else { throw FeesError.invalidName }
            let amount = try FeesLedger.amount(item.amount, context)
            let due: CivilDate
            if let text = item.dueOn {
                guard let date = CivilDate(text), year.startsOn <= date, date <= year.endsOn else { throw FeesError.invalidDate(text) }
                due = date
            } else {
                guard item.schedule == .perTerm else { throw FeesError.invalidDate("") }
                due = year.startsOn
            }
            return FeeStructure.Item(type: item.type, label: label, amountMinor: amount, schedule: item.schedule, dueOn: due.description)
        }
        return (year, targetID, items)
    }
}

/// The school's fee structures for a year, with their items.
public struct ListFeeStructures: Action {
    public struct Input: Codable, Sendable {
        public var schoolYear: String?
        public init(schoolYear: String? = nil) { self.schoolYear = schoolYear }
    }

    public static let id = "fees.structure.list"
    public static let permission = FeesPermissions.manage
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> [FeeStructure] {
        let year = try FeesSchoolYear.named(input.schoolYear, context)
        return try FeesTargets.structures(of: year, context)
    }
}

/// Finds what a structure is for, by the codes people use.
enum FeesTargets {
    static func id(of kind: FeeTargetKind, code: String?, year: FeesSchoolYear, _ context: ActionContext) throws -> String? {
        switch kind {
        case .school:
            return nil
        case .yearLevel:
            guard let code, let id: String = try context.database.fetchValue(
                "SELECT id FROM students_v1_year_levels WHERE school_id = :school_id AND code = :code", ["code": .text(code)]) else { throw FeesError.unknownTarget(code ?? "") }
            return id
        case .classGroup:
            guard let code, let id: String = try context.database.fetchValue(
                "SELECT id FROM students_v1_classes WHERE school_id = :school_id AND code = :code AND school_year_id = :year",
                ["code": .text(code), "year": .text(year.id)]) else { throw FeesError.unknownTarget(code ?? "") }
            return id
        case .student:
            guard let code else { throw FeesError.unknownTarget("") }
            return try FeesStudents.any(code, context).id
        }
    }

    static func structures(of year: FeesSchoolYear, _ context: ActionContext) throws -> [FeeStructure] {
        let items = try context.database.fetchAll("""
            SELECT structure_id, item_type, label, amount_minor, schedule, due_on FROM fees_items i
            WHERE school_id = :school_id AND structure_id IN (SELECT id FROM fees_structures WHERE school_id = :school_id AND school_year_id = :year)
            ORDER BY structure_id, position
            """, ["year": .text(year.id)])
        let byStructure = Dictionary(grouping: items, by: { $0.string("structure_id") })
        return try context.database.fetchAll("""
            SELECT id, name, target_kind, target_id FROM fees_structures WHERE school_id = :school_id AND school_year_id = :year ORDER BY created_at, id
            """, ["year": .text(year.id)]).map { row in
            FeeStructure(id: row.string("id"), name: row.string("name"), schoolYear: year.name, target: FeeTargetKind(rawValue: row.string("target_kind")) ?? .school,
                         targetID: row["target_id"], items: (byStructure[row.string("id")] ?? []).map { item in
                FeeStructure.Item(type: FeeItemType(rawValue: item.string("item_type")) ?? .custom, label: item.string("label"), amountMinor: item.int("amount_minor"),
                                  schedule: FeeSchedule(rawValue: item.string("schedule")) ?? .once, dueOn: item.string("due_on"))
            })
        }
    }
}

/// Grants a student a discount on the charges generated from now on: sibling, scholarship or
/// staff child; a percentage or a fixed amount off each charge, with a reason and who granted it.
public struct GrantFeeDiscount: Action {
    public struct Input: Codable, Sendable {
        public var student: String
        public var kind: FeeDiscountKind
        /// `10` or `12.5` (percent), or leave out and give `amount`.
        public var percent: String?
        public var amount: String?
        public var reason: String

        public init(student: String, kind: FeeDiscountKind, percent: String? = nil, amount: String? = nil, reason: String) {
            self.student = student
            self.kind = kind
            self.percent = percent
            self.amount = amount
            self.reason = reason
        }
    }

    public struct Output: Codable, Sendable, Equatable {
        public let id: String
        public let studentID: String
        public let kind: FeeDiscountKind
        public let basisPoints: Int?
        public let amountMinor: Int?
    }

    public static let id = "fees.discount.grant"
    public static let permission = FeesPermissions.manage

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        _ = try resolved(input, context)
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        let (student, basisPoints, amount) = try resolved(input, context)
        let id = context.newID()
        try context.database.insert(into: "fees_discounts", [
            "id": .text(id), "student_id": .text(student.id), "kind": .text(input.kind.rawValue), "basis_points": SQLValue(basisPoints),
            "amount_minor": SQLValue(amount), "reason": .text(input.reason.trimmingCharacters(in: .whitespaces)),
            "granted_by": .text(context.principal.userID), "granted_at": SQLValue(context.now),
        ])
        context.auditDetail = "\(input.kind.rawValue) discount for \(student.grNumber)"
        return Output(id: id, studentID: student.id, kind: input.kind, basisPoints: basisPoints, amountMinor: amount)
    }

    private func resolved(_ input: Input, _ context: ActionContext) throws -> (FeesStudent, Int?, Int?) {
        guard (1...500).contains(input.reason.trimmingCharacters(in: .whitespaces).count) else { throw FeesError.invalidDiscount }
        let student = try FeesStudents.any(input.student, context)
        switch (input.percent, input.amount) {
        case (let percent?, nil):
            guard let points = FeesMoney.parse(percent, digits: 2), (1...10_000).contains(points) else { throw FeesError.invalidDiscount }
            return (student, points, nil)
        case (nil, let amount?):
            return (student, nil, try FeesLedger.amount(amount, context))
        default:
            throw FeesError.invalidDiscount
        }
    }
}
