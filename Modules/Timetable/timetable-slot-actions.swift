import Core
import Foundation
import Students

/// Slot reads shared by the views, the clash check and other modules (attendance uses periods).
public enum SlotQueries {
    static let select = """
        SELECT t.*, p.code AS period_code, p.starts_at, p.ends_at, c.code AS class_code,
               sub.code AS subject_code, sub.name_ar AS subject_ar, sub.name_en AS subject_en,
               u.email AS teacher_email, u.display_name AS teacher_name
        FROM timetable_slots t
        JOIN timetable_periods p ON p.school_id = t.school_id AND p.id = t.period_id
        JOIN students_v1_classes c ON c.school_id = t.school_id AND c.id = t.class_id
        JOIN students_v1_subjects sub ON sub.school_id = t.school_id AND sub.id = t.subject_id
        JOIN auth_v1_people u ON u.school_id = t.school_id AND u.id = t.teacher_user_id
        """

    /// Every slot of a class or a teacher, ordered by day and time.
    public static func slots(classID: String? = nil, teacherID: String? = nil, _ context: ActionContext) throws -> [Slot] {
        try context.database.fetchAll("""
            \(select) WHERE t.school_id = :school_id AND (:class IS NULL OR t.class_id = :class) AND (:teacher IS NULL OR t.teacher_user_id = :teacher)
            ORDER BY t.day, p.starts_at, t.week
            """, ["class": SQLValue(classID), "teacher": SQLValue(teacherID)]).map(Slot.init(row:))
    }

    public static func periods(_ context: ActionContext) throws -> [Period] {
        try context.database.fetchAll("SELECT * FROM timetable_periods WHERE school_id = :school_id ORDER BY starts_at").map(Period.init(row:))
    }

    static func period(code: String, _ context: ActionContext) throws -> Period {
        guard let row = try context.database.fetchOne("SELECT * FROM timetable_periods WHERE school_id = :school_id AND code = :code", ["code": .text(code)])
        else { throw TimetableError.unknownPeriod(code) }
        return Period(row: row)
    }

    static func subjectID(code: String, _ context: ActionContext) throws -> String {
        guard let id = try Roster.subjectID(code: code, context) else { throw TimetableError.unknownSubject(code) }
        return id
    }

    static func teacherID(email: String, _ context: ActionContext) throws -> String {
        guard let id = try Roster.teacherID(email: email, context) else { throw TimetableError.unknownTeacher(email) }
        return id
    }

    /// A slot by id or by an unambiguous prefix of it (tables show the first 8 characters).
    static func slotID(_ reference: String, _ context: ActionContext) throws -> String {
        guard !reference.isEmpty else { throw TimetableError.unknownSlot(reference) }
        let ids: [String] = try context.database.fetchAll(
            "SELECT id FROM timetable_slots WHERE school_id = :school_id AND id LIKE :prefix \(LikePattern.escapeClause) LIMIT 2",
            ["prefix": .text(LikePattern.prefix(reference))]
        ).map { $0.string("id") }
        guard ids.count == 1, let id = ids.first else { throw TimetableError.unknownSlot(reference) }
        return id
    }
}

/// Where and when a lesson takes place, as admins type it.
public struct SlotPlacement: Codable, Sendable {
    public var day: Int
    public var periodCode: String
    /// -1 every week, 0 = A, 1 = B, ...
    public var week: Int
    public var classCode: String
    public var subjectCode: String
    public var teacherEmail: String
    public var room: String

    public init(day: Int, periodCode: String, week: Int, classCode: String, subjectCode: String, teacherEmail: String, room: String) {
        self.day = day
        self.periodCode = periodCode
        self.week = week
        self.classCode = classCode
        self.subjectCode = subjectCode
        self.teacherEmail = teacherEmail
        self.room = room
    }
}

/// The ids a placement resolves to, after every check that does not need the other slots.
struct ResolvedPlacement {
    let day: Int
    let periodID: String
    let week: Int
    let classID: String
    let subjectID: String
    let teacherID: String
    let room: String

    init(_ placement: SlotPlacement, _ context: ActionContext) throws {
        let calendar = try SchoolCalendar.load(context)
        guard calendar.workingDays.contains(placement.day) else { throw TimetableError.notWorkingDay(placement.day) }
        guard placement.week >= -1, placement.week < calendar.cycleLength else { throw TimetableError.weekOutsideCycle(WeekSpec.name(placement.week)) }
        let period = try SlotQueries.period(code: placement.periodCode, context)
        guard !period.isBreak else { throw TimetableError.breakPeriod(placement.periodCode) }
        let room = placement.room.trimmingCharacters(in: .whitespaces)
        guard !room.isEmpty else { throw InputError("timetable.error.room-required") }
        try TextInput.check(room, field: "room", maxLength: TextLimit.name)
        day = placement.day
        periodID = period.id
        week = placement.week
        classID = try Roster.classID(code: placement.classCode, context)
        subjectID = try SlotQueries.subjectID(code: placement.subjectCode, context)
        teacherID = try SlotQueries.teacherID(email: placement.teacherEmail, context)
        self.room = room
    }

    /// Refuses a teacher, room or class already booked in the same day, period and week
    /// (a slot for every week clashes with A and B), naming the lesson in the way.
    func checkClashes(ignoring slotID: String?, _ context: ActionContext) throws {
        let rows = try context.database.fetchAll("""
            \(SlotQueries.select) WHERE t.school_id = :school_id AND t.day = :day AND t.period_id = :period
              AND (t.week = -1 OR :week = -1 OR t.week = :week) AND t.id != :ignore
              AND (t.teacher_user_id = :teacher OR t.room = :room OR t.class_id = :class)
            ORDER BY CASE WHEN t.teacher_user_id = :teacher THEN 0 WHEN t.room = :room THEN 1 ELSE 2 END, t.week, t.id
            """, ["day": .integer(Int64(day)), "period": .text(periodID), "week": .integer(Int64(week)), "ignore": .text(slotID ?? ""),
                  "teacher": .text(teacherID), "room": .text(room), "class": .text(classID)])
        guard let row = rows.first else { return }
        let other = Slot(row: row)
        // The same precedence as the ORDER BY: the teacher, then the room, then the class.
        let what = row.string("teacher_user_id") == teacherID ? "teacher" : row.string("room") == room ? "room" : "class"
        let description = "\(Weekday.codes[other.day]) \(other.periodCode) \(WeekSpec.name(other.week)): \(other.classCode) \(other.subjectCode) \(other.teacherEmail) \(other.room)"
        throw TimetableError.clash(what: what, slot: description)
    }
}

public struct CreateSlot: Action {
    public static let id = "timetable.create-slot"
    public static let permission = TimetablePermissions.manage

    public init() {}

    public func validate(_ input: SlotPlacement, in context: ActionContext) throws {
        try ResolvedPlacement(input, context).checkClashes(ignoring: nil, context)
    }

    public func perform(_ input: SlotPlacement, in context: ActionContext) throws -> String {
        let placement = try ResolvedPlacement(input, context)
        let id = context.newID()
        try context.database.insert(into: "timetable_slots", [
            "id": .text(id), "day": .integer(Int64(placement.day)), "period_id": .text(placement.periodID), "week": .integer(Int64(placement.week)),
            "class_id": .text(placement.classID), "subject_id": .text(placement.subjectID), "teacher_user_id": .text(placement.teacherID),
            "room": .text(placement.room),
        ])
        return id
    }
}

/// Moves a slot to another day, period, week or room, keeping its class, subject and teacher.
public struct MoveSlot: Action {
    public struct Input: Codable, Sendable {
        public var slot: String
        public var day: Int?
        public var periodCode: String?
        public var week: Int?
        public var room: String?
        public init(slot: String, day: Int? = nil, periodCode: String? = nil, week: Int? = nil, room: String? = nil) {
            self.slot = slot
            self.day = day
            self.periodCode = periodCode
            self.week = week
            self.room = room
        }
    }

    public static let id = "timetable.move-slot"
    public static let permission = TimetablePermissions.manage

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        let (id, placement) = try target(input, context)
        try ResolvedPlacement(placement, context).checkClashes(ignoring: id, context)
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> String {
        let (id, placement) = try target(input, context)
        let resolved = try ResolvedPlacement(placement, context)
        try context.database.execute(
            "UPDATE timetable_slots SET day = :day, period_id = :period, week = :week, room = :room WHERE school_id = :school_id AND id = :id",
            ["day": .integer(Int64(resolved.day)), "period": .text(resolved.periodID), "week": .integer(Int64(resolved.week)),
             "room": .text(resolved.room), "id": .text(id)])
        return id
    }

    private func target(_ input: Input, _ context: ActionContext) throws -> (String, SlotPlacement) {
        let id = try SlotQueries.slotID(input.slot, context)
        guard let row = try context.database.fetchOne("\(SlotQueries.select) WHERE t.school_id = :school_id AND t.id = :id", ["id": .text(id)]) else {
            throw TimetableError.unknownSlot(input.slot)
        }
        let slot = Slot(row: row)
        return (id, SlotPlacement(day: input.day ?? slot.day, periodCode: input.periodCode ?? slot.periodCode, week: input.week ?? slot.week,
                                  classCode: slot.classCode, subjectCode: slot.subjectCode, teacherEmail: slot.teacherEmail, room: input.room ?? slot.room))
    }
}

public struct DeleteSlot: Action {
    public struct Input: Codable, Sendable {
        public var slot: String
        public init(slot: String) { self.slot = slot }
    }

    public static let id = "timetable.delete-slot"
    public static let permission = TimetablePermissions.manage

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        _ = try SlotQueries.slotID(input.slot, context)
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> String {
        let id = try SlotQueries.slotID(input.slot, context)
        try context.database.execute("DELETE FROM timetable_slots WHERE school_id = :school_id AND id = :id", ["id": .text(id)])
        return id
    }
}
