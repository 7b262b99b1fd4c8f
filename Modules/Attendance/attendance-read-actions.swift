import Core
import Foundation
import Students

/// The student a personal read is about: the one named (by id or GR number) if the principal may
/// see them, else the signed-in student or a guardian's only child.
enum AttendanceStudent {
    static func ofRead(_ reference: String?, _ context: ActionContext) throws -> Student {
        guard let reference else { return try Roster.studentOfRead(nil, context) }
        return try Roster.visibleStudent(reference: reference, context)
    }

    /// The records of one student in an optional date range, for `WHERE` on `attendance_records r`.
    static let range = "r.school_id = :school_id AND r.student_id = :student AND (:from IS NULL OR r.date >= :from) AND (:to IS NULL OR r.date <= :to)"

    static func checkDates(_ dates: String?...) throws {
        for date in dates.compactMap({ $0 }) where CivilDate(date) == nil { throw AttendanceError.invalidDate(date) }
    }
}

/// One page of a student's records, newest first, with each record's class, year level and period
/// names: what a phone shows (the API's student and child attendance).
public struct AttendanceRecords: Action {
    public struct Input: Codable, Sendable {
        /// The student's id or GR number; nil: the signed-in student, or a guardian's only child.
        public var student: String?
        public var from: String?
        public var to: String?
        public var offset: Int
        public var limit: Int
        /// Only for a guardian's own children (the guardian routes): anyone else is refused.
        public var childrenOnly: Bool

        public init(student: String? = nil, from: String? = nil, to: String? = nil, offset: Int = 0, limit: Int = 50, childrenOnly: Bool = false) {
            self.student = student
            self.from = from
            self.to = to
            self.offset = offset
            self.limit = limit
            self.childrenOnly = childrenOnly
        }
    }

    public struct Line: Codable, Sendable, Equatable {
        public let id: String
        public let date: CivilDate
        public let period: String
        /// The timetable's name of the period, where the timetable is on; nil for the whole day.
        public let periodName: LocalizedText?
        public let status: AttendanceStatus
        public let method: String
        public let notes: String?
        public let markedAt: Date?
        public let classID: String
        public let className: LocalizedText
        public let yearLevelName: LocalizedText?
    }

    public struct Output: Codable, Sendable {
        public let studentID: String
        /// Every record in the range, not only this page's.
        public let total: Int
        public let records: [Line]
    }

    public static let id = "attendance.records"
    public static let permission = AttendancePermissions.read
    public static let isReadOnly = true

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        if input.childrenOnly && context.scope != .linkedChildren { throw AttendanceError.notAGuardian }
        try AttendanceStudent.checkDates(input.from, input.to)
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        let student = try AttendanceStudent.ofRead(input.student, context)
        let arguments: SQLArguments = [
            "student": .text(student.id), "from": SQLValue(input.from), "to": SQLValue(input.to),
            "limit": SQLValue(min(max(input.limit, 1), 1000)), "offset": SQLValue(max(input.offset, 0)),
        ]
        let total: Int = try context.database.fetchValue("SELECT COUNT(*) FROM attendance_records r WHERE \(AttendanceStudent.range)", arguments) ?? 0
        // Period names come from the timetable where it is on; elsewhere a period is its code.
        let periods = try TimetablePeriods.byCode(context) ?? [:]
        let rows = try context.database.fetchAll("""
            SELECT r.id, r.date, r.period, r.status, r.method, r.notes, r.marked_at, r.class_id, c.name_ar AS class_ar, c.name_en AS class_en,
                   y.name_ar AS level_ar, y.name_en AS level_en
            FROM attendance_records r
            JOIN students_v1_classes c ON c.school_id = r.school_id AND c.id = r.class_id
            LEFT JOIN students_v1_year_levels y ON y.school_id = c.school_id AND y.id = c.year_level_id
            WHERE \(AttendanceStudent.range)
            ORDER BY r.date DESC, r.period DESC LIMIT :limit OFFSET :offset
            """, arguments)
        return Output(studentID: student.id, total: total, records: rows.map { row in
            let period = row.string("period")
            return Line(
                id: row.string("id"), date: CivilDate(row.string("date")) ?? CivilDate(dayNumber: 0), period: period,
                periodName: period == AttendancePeriod.wholeDay ? nil : periods[period].map { LocalizedText(ar: $0.nameAr, en: $0.nameEn) }
                    ?? LocalizedText(ar: period, en: period),
                status: AttendanceStatus(rawValue: row.string("status")) ?? .present, method: row.string("method"), notes: row["notes"],
                markedAt: row["marked_at"], classID: row.string("class_id"), className: Self.text(row, "class") ?? LocalizedText(ar: "", en: ""),
                yearLevelName: Self.text(row, "level"))
        })
    }

    static func text(_ row: SQLRow, _ prefix: String) -> LocalizedText? {
        guard let ar: String = row[prefix + "_ar"], let en: String = row[prefix + "_en"] else { return nil }
        return LocalizedText(ar: ar, en: en)
    }
}

/// A student's counts per status and rate, in one grouped read (the API's summary and dashboard).
public struct AttendanceSummary: Action {
    public struct Input: Codable, Sendable {
        /// The student's id or GR number; nil: the signed-in student, or a guardian's only child.
        public var student: String?
        public var from: String?
        public var to: String?
        public init(student: String? = nil, from: String? = nil, to: String? = nil) {
            self.student = student
            self.from = from
            self.to = to
        }
    }

    public struct Output: Codable, Sendable, Equatable {
        public let studentID: String
        public let totals: AttendanceTotals
        /// The one attendance rate (`AttendanceTotals.rate`), nil when nothing counts yet.
        public let rate: Double?
    }

    public static let id = "attendance.summary"
    public static let permission = AttendancePermissions.read
    public static let isReadOnly = true

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        try AttendanceStudent.checkDates(input.from, input.to)
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        let student = try AttendanceStudent.ofRead(input.student, context)
        var totals = AttendanceTotals()
        let rows = try context.database.fetchAll("SELECT r.status, COUNT(*) AS n FROM attendance_records r WHERE \(AttendanceStudent.range) GROUP BY r.status",
                                                 ["student": .text(student.id), "from": SQLValue(input.from), "to": SQLValue(input.to)])
        for row in rows {
            if let status = AttendanceStatus(rawValue: row.string("status")) { totals.add(status, count: row.int("n")) }
        }
        return Output(studentID: student.id, totals: totals, rate: totals.rate)
    }
}

/// Today's records in the principal's reach, counted per status (the API's admin stats).
public struct AttendanceToday: Action {
    public struct Input: Codable, Sendable {
        public init() {}
    }

    public struct Output: Codable, Sendable, Equatable {
        public let date: CivilDate
        public let totals: AttendanceTotals
        public let rate: Double?
    }

    public static let id = "attendance.today"
    public static let permission = AttendancePermissions.stats
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        var arguments = StudentVisibility.arguments(for: context)
        arguments["date"] = .text(context.today.description)
        let visible = context.scope == .school ? "" : """
            AND r.student_id IN (SELECT s.id FROM students_v1_students s WHERE s.school_id = :school_id AND \(StudentVisibility.viewerCondition(for: context.scope)))
            """
        var totals = AttendanceTotals()
        let rows = try context.database.fetchAll(
            "SELECT r.status, COUNT(*) AS n FROM attendance_records r WHERE r.school_id = :school_id AND r.date = :date \(visible) GROUP BY r.status", arguments)
        for row in rows {
            if let status = AttendanceStatus(rawValue: row.string("status")) { totals.add(status, count: row.int("n")) }
        }
        return Output(date: context.today, totals: totals, rate: totals.rate)
    }
}
