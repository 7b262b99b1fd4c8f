import Core
import Foundation
import Students

public struct Excuse: Codable, Sendable, Equatable {
    public let id: String
    public let grNumber: String
    public let studentName: String
    public let classCode: String
    public let date: String
    public let period: String
    public let recordStatus: AttendanceStatus
    public let reason: ExcuseReason
    public let description: String
    public let status: ReviewStatus
    /// The excused record and its student, by id (the API's `attendance_id`, `student_id`).
    public let recordID: String
    public let studentID: String
    /// Links to documents (a doctor's note), at most five.
    public let attachments: [String]
    public let submittedBy: String
    public let submittedAt: Date
    public let reviewedBy: String?
    public let reviewedAt: Date?
    public let reviewNote: String?

    init(row: SQLRow) {
        id = row.string("id")
        grNumber = row.string("gr_number")
        studentName = "\(row.string("given_name")) \(row.string("surname"))"
        classCode = row.string("class_code")
        date = row.string("date")
        period = row.string("period")
        recordStatus = AttendanceStatus(rawValue: row.string("record_status")) ?? .absent
        reason = ExcuseReason(rawValue: row.string("reason")) ?? .other
        description = row.string("description")
        status = ReviewStatus(rawValue: row.string("status")) ?? .pending
        recordID = row.string("record_id")
        studentID = row.string("student_id")
        attachments = (try? JSONDecoder().decode([String].self, from: Data(row.string("attachments").utf8))) ?? []
        submittedBy = row.string("submitted_by")
        submittedAt = row["submitted_at"] ?? Date(timeIntervalSince1970: 0)
        reviewedBy = row["reviewed_by"]
        reviewedAt = row["reviewed_at"]
        reviewNote = row["review_note"]
    }

    static let select = """
        SELECT x.*, r.date, r.period, r.status AS record_status, r.class_id, r.student_id, s.gr_number, s.given_name, s.surname, c.code AS class_code
        FROM attendance_excuses x
        JOIN attendance_records r ON r.school_id = x.school_id AND r.id = x.record_id
        JOIN students_v1_students s ON s.school_id = r.school_id AND s.id = r.student_id
        JOIN students_v1_classes c ON c.school_id = r.school_id AND c.id = r.class_id
        """
}

/// A guardian explains a child's ABSENT or LATE record. One excuse per record.
public struct SubmitExcuse: Action {
    public struct Input: Codable, Sendable {
        /// The record by student and date (the command line), or by id (the API's `attendance_id`).
        public var grNumber: String?
        public var date: String?
        public var period: String?
        public var recordID: String?
        public var reason: ExcuseReason
        public var description: String
        /// Links to documents: at most five http(s) URLs.
        public var attachments: [String]?

        public init(grNumber: String, date: String, period: String? = nil, reason: ExcuseReason, description: String) {
            self.grNumber = grNumber
            self.date = date
            self.period = period
            self.reason = reason
            self.description = description
        }

        public init(recordID: String, reason: ExcuseReason, description: String, attachments: [String]? = nil) {
            self.recordID = recordID
            self.reason = reason
            self.description = description
            self.attachments = attachments
        }
    }

    public static let id = "attendance.submit-excuse"
    public static let permission = AttendancePermissions.submitExcuse
    public static let maximumAttachments = 5

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        try TextInput.check(input.description, field: "description", maxLength: 2000, multiline: true)
        let attachments = input.attachments ?? []
        if attachments.count > Self.maximumAttachments { throw AttendanceError.tooManyAttachments(Self.maximumAttachments) }
        for link in attachments where !Self.isLink(link) { throw AttendanceError.invalidAttachment(TextInput.printable(String(link.prefix(100)))) }
        let record = try record(input, context)
        guard ["ABSENT", "LATE"].contains(record.string("status")) else { throw AttendanceError.notExcusable(record.string("status")) }
        let existing: Int = try context.database.fetchValue(
            "SELECT COUNT(*) FROM attendance_excuses WHERE school_id = :school_id AND record_id = :record", ["record": .text(record.string("id"))]) ?? 0
        if existing > 0 { throw AttendanceError.excuseExists }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> String {
        let id = context.newID()
        let attachments = String(decoding: try JSONEncoder().encode(input.attachments ?? []), as: UTF8.self)
        try context.database.insert(into: "attendance_excuses", [
            "id": .text(id), "record_id": .text(try record(input, context).string("id")), "reason": .text(input.reason.rawValue),
            "description": .text(input.description), "status": .text(ReviewStatus.pending.rawValue),
            "submitted_by": .text(context.principal.userID), "submitted_at": SQLValue(context.now), "attachments": .text(attachments),
        ])
        return id
    }

    /// An http(s) URL with a host, at most 2,000 characters, no spaces or control characters.
    static func isLink(_ text: String) -> Bool {
        guard TextInput.problem(in: text, maxLength: 2000) == nil, !text.contains(" "),
              let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              let host = url.host, !host.isEmpty else { return false }
        return true
    }

    /// The record, read once per run; another family's record answers as one that does not exist.
    private func record(_ input: Input, _ context: ActionContext) throws -> SQLRow {
        try context.remember("attendance.excused-record") {
            if let recordID = input.recordID {
                let row = try context.database.fetchOne("""
                    SELECT r.id, r.status, r.student_id, s.gr_number FROM attendance_records r JOIN students_v1_students s ON s.school_id = r.school_id AND s.id = r.student_id
                    WHERE r.school_id = :school_id AND r.id = :record
                    """, ["record": .text(recordID)])
                guard let row, try StudentVisibility.canSee(studentID: row.string("student_id"), in: context) else {
                    throw AttendanceError.unknownRecord(recordID)
                }
                return row
            }
            let grNumber = input.grNumber ?? ""
            let date = input.date ?? ""
            let student = try Roster.visibleStudent(gr: grNumber, context)
            guard CivilDate(date) != nil else { throw AttendanceError.invalidDate(date) }
            let row = try context.database.fetchOne(
                "SELECT id, status FROM attendance_records WHERE school_id = :school_id AND student_id = :student AND date = :date AND period = :period",
                ["student": .text(student.id), "date": .text(date), "period": .text(input.period ?? AttendancePeriod.wholeDay)])
            guard let row else { throw AttendanceError.noRecord(grNumber, date) }
            return row
        }
    }
}

/// A teacher of the class or an admin approves or rejects a PENDING excuse; approval turns the
/// record EXCUSED in the same transaction.
public struct ReviewExcuse: Action {
    public struct Input: Codable, Sendable {
        public var excuse: String
        public var approve: Bool
        public var note: String?
        public init(excuse: String, approve: Bool, note: String? = nil) {
            self.excuse = excuse
            self.approve = approve
            self.note = note
        }
    }

    public static let id = "attendance.review-excuse"
    public static let permission = AttendancePermissions.reviewExcuse

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        // The look-up is scoped first: another class's excuse is unknown, decided or not.
        let row = try excuse(input.excuse, context)
        guard row.string("status") == ReviewStatus.pending.rawValue else { throw AttendanceError.alreadyDecided(row.string("status")) }
        try TextInput.check(input.note ?? "", field: "note", maxLength: 500, multiline: true)
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Excuse {
        let row = try excuse(input.excuse, context)
        let status: ReviewStatus = input.approve ? .approved : .rejected
        try context.database.execute("""
            UPDATE attendance_excuses SET status = :status, reviewed_by = :me, reviewed_at = :now, review_note = :note
            WHERE school_id = :school_id AND id = :id
            """, ["status": .text(status.rawValue), "me": .text(context.principal.userID), "now": SQLValue(context.now),
                  "note": SQLValue(input.note), "id": .text(row.string("id"))])
        if input.approve {
            try context.database.execute("UPDATE attendance_records SET status = 'EXCUSED', marked_by = :me, marked_at = :now WHERE school_id = :school_id AND id = :record",
                                         ["me": .text(context.principal.userID), "now": SQLValue(context.now), "record": .text(row.string("record_id"))])
            let previous = AttendanceStatus(rawValue: row.string("record_status")) ?? .absent
            try RecordWriter.recordChange(recordID: row.string("record_id"), from: previous, to: .excused, context)
        }
        try context.publish(ExcuseDecided(excuseID: row.string("id"), studentID: row.string("student_id"), grNumber: row.string("gr_number"),
                                          date: row.string("date"), approved: input.approve, submittedBy: row.string("submitted_by")))
        context.auditDetail = "\(row.string("gr_number")) \(row.string("date")): \(status.rawValue)"
        guard let decided = try context.database.fetchOne("\(Excuse.select) WHERE x.school_id = :school_id AND x.id = :id", ["id": .text(row.string("id"))]) else {
            throw AttendanceError.unknownExcuse(input.excuse)
        }
        return Excuse(row: decided)
    }

    /// An excuse by id or an unambiguous prefix of it.
    /// The excuse a reference names among those the principal reviews (a teacher: their classes'),
    /// so another class's excuse is unknown whatever its state, and never makes a prefix ambiguous.
    private func excuse(_ reference: String, _ context: ActionContext) throws -> SQLRow {
        guard !reference.isEmpty else { throw AttendanceError.unknownExcuse(reference) }
        let scoped = context.scope == .school ? "" : """
            AND (c.homeroom_teacher_id = :me
                 OR r.class_id IN (SELECT class_id FROM students_v1_teaching WHERE school_id = :school_id AND teacher_user_id = :me))
            """
        let rows = try context.database.fetchAll(
            "\(Excuse.select) WHERE x.school_id = :school_id AND x.id LIKE :prefix \(LikePattern.escapeClause) \(scoped) LIMIT 2",
            ReviewLookup.arguments(reference, context))
        guard rows.count == 1, let row = rows.first else { throw AttendanceError.unknownExcuse(reference) }
        return row
    }
}

/// Excuses the principal may see: guardians their children's, teachers their classes', admins all.
public struct ListExcuses: Action {
    public struct Input: Codable, Sendable {
        public var status: ReviewStatus?
        /// One student's (by id), one excuse (by id), or all.
        public var studentID: String?
        public var excuseID: String?
        /// A page (the API); nil: every excuse.
        public var offset: Int?
        public var limit: Int?

        public init(status: ReviewStatus? = nil, studentID: String? = nil, excuseID: String? = nil, offset: Int? = nil, limit: Int? = nil) {
            self.status = status
            self.studentID = studentID
            self.excuseID = excuseID
            self.offset = offset
            self.limit = limit
        }
    }

    public struct Output: Codable, Sendable, Equatable {
        /// Every excuse that matches, not only this page's.
        public let total: Int
        public let excuses: [Excuse]
    }

    public static let id = "attendance.list-excuses"
    public static let permission = AttendancePermissions.read
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        var arguments = StudentVisibility.arguments(for: context)
        arguments["status"] = SQLValue(input.status?.rawValue)
        arguments["student"] = SQLValue(input.studentID)
        arguments["excuse"] = SQLValue(input.excuseID)
        if let limit = input.limit {
            arguments["limit"] = SQLValue(min(max(limit, 1), 1000))
            arguments["offset"] = SQLValue(max(input.offset ?? 0, 0))
        }
        let filter = """
            x.school_id = :school_id AND (:status IS NULL OR x.status = :status) AND (:student IS NULL OR r.student_id = :student)
              AND (:excuse IS NULL OR x.id = :excuse) AND \(StudentVisibility.viewerCondition(for: context.scope))
            """
        let excuses = try context.database.fetchAll("\(Excuse.select) WHERE \(filter) ORDER BY r.date DESC, s.gr_number, x.id \(input.limit == nil ? "" : "LIMIT :limit OFFSET :offset")", arguments)
            .map(Excuse.init(row:))
        // Only a page needs the count: without one, the list is every excuse.
        let total: Int = input.limit == nil ? excuses.count : try context.database.fetchValue("""
            SELECT COUNT(*) FROM attendance_excuses x
            JOIN attendance_records r ON r.school_id = x.school_id AND r.id = x.record_id
            JOIN students_v1_students s ON s.school_id = r.school_id AND s.id = r.student_id
            WHERE \(filter)
            """, arguments) ?? 0
        return Output(total: total, excuses: excuses)
    }
}

/// A guardian announces a coming absence over a date range; once approved, an absence recorded
/// in the range is EXCUSED (and absences already recorded there become EXCUSED on approval).
public struct SubmitNotice: Action {
    public struct Input: Codable, Sendable {
        public var grNumber: String
        public var from: String
        public var to: String
        public var reason: ExcuseReason
        public var description: String
        public init(grNumber: String, from: String, to: String, reason: ExcuseReason, description: String) {
            self.grNumber = grNumber
            self.from = from
            self.to = to
            self.reason = reason
            self.description = description
        }
    }

    public static let id = "attendance.submit-notice"
    public static let permission = AttendancePermissions.submitExcuse

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        _ = try Roster.visibleStudent(gr: input.grNumber, context)
        guard let from = CivilDate(input.from) else { throw AttendanceError.invalidDate(input.from) }
        guard let to = CivilDate(input.to), from <= to else { throw AttendanceError.invalidDate(input.to) }
        try AttendanceAccess.requireSchoolYear(from, context)
        try AttendanceAccess.requireSchoolYear(to, context)
        try TextInput.check(input.description, field: "description", maxLength: 2000, multiline: true)
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> String {
        let id = context.newID()
        try context.database.insert(into: "attendance_notices", [
            "id": .text(id), "student_id": .text(try Roster.visibleStudent(gr: input.grNumber, context).id), "starts_on": .text(input.from),
            "ends_on": .text(input.to), "reason": .text(input.reason.rawValue), "description": .text(input.description),
            "status": .text(ReviewStatus.pending.rawValue), "submitted_by": .text(context.principal.userID), "submitted_at": SQLValue(context.now),
        ])
        return id
    }
}

public struct ReviewNotice: Action {
    public struct Input: Codable, Sendable {
        public var notice: String
        public var approve: Bool
        public init(notice: String, approve: Bool) {
            self.notice = notice
            self.approve = approve
        }
    }

    public static let id = "attendance.review-notice"
    public static let permission = AttendancePermissions.reviewExcuse

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        // Scoped look-up first: a notice for a student the teacher does not teach is unknown, decided or not.
        let row = try notice(input.notice, context)
        guard row.string("status") == ReviewStatus.pending.rawValue else { throw AttendanceError.alreadyDecided(row.string("status")) }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Int {
        let row = try notice(input.notice, context)
        try context.database.execute("UPDATE attendance_notices SET status = :status, reviewed_by = :me, reviewed_at = :now WHERE school_id = :school_id AND id = :id",
                                     ["status": .text(input.approve ? "APPROVED" : "REJECTED"), "me": .text(context.principal.userID),
                                      "now": SQLValue(context.now), "id": .text(row.string("id"))])
        guard input.approve else { return 0 }
        let absences = try context.database.fetchAll("""
            SELECT id FROM attendance_records WHERE school_id = :school_id AND student_id = :student AND status = 'ABSENT'
              AND date >= :from AND date <= :to
            """, ["student": .text(row.string("student_id")), "from": .text(row.string("starts_on")), "to": .text(row.string("ends_on"))])
        for absence in absences {
            try context.database.execute("UPDATE attendance_records SET status = 'EXCUSED' WHERE school_id = :school_id AND id = :id", ["id": .text(absence.string("id"))])
            try RecordWriter.recordChange(recordID: absence.string("id"), from: .absent, to: .excused, context)
        }
        return absences.count
    }

    private func notice(_ reference: String, _ context: ActionContext) throws -> SQLRow {
        guard !reference.isEmpty else { throw AttendanceError.unknownExcuse(reference) }
        let scoped = context.scope == .school ? "" : """
            AND student_id IN (SELECT student_id FROM students_v1_student_viewers WHERE school_id = :school_id AND viewer_user_id = :me)
            """
        let rows = try context.database.fetchAll(
            "SELECT * FROM attendance_notices WHERE school_id = :school_id AND id LIKE :prefix \(LikePattern.escapeClause) \(scoped) LIMIT 2",
            ReviewLookup.arguments(reference, context))
        guard rows.count == 1, let row = rows.first else { throw AttendanceError.unknownExcuse(reference) }
        return row
    }
}

/// The arguments of an excuse's or notice's look-up by id prefix.
private enum ReviewLookup {
    /// The prefix, and the principal where the look-up is scoped (a statement binds only what it names).
    static func arguments(_ reference: String, _ context: ActionContext) -> SQLArguments {
        var arguments: SQLArguments = ["prefix": .text(LikePattern.prefix(reference))]
        if context.scope != .school { arguments["me"] = .text(context.principal.userID) }
        return arguments
    }
}
