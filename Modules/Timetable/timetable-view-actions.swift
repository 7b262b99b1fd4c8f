import Core
import Foundation
import Students

/// Whose timetable to show.
public enum TimetableTarget: Codable, Sendable, Equatable {
    /// The signed-in user's own: a teacher's teaching, a student's class, a guardian's only child.
    case mine
    case classCode(String)
    case teacher(String)
    case student(String)
}

/// One day of a view: its date (nil in the fortnight pattern), its cycle week and its lessons.
public struct DayPlan: Codable, Sendable {
    public let date: CivilDate?
    public let weekday: Int
    public let week: CycleWeek
    public let isSchoolDay: Bool
    public let lessons: [Slot]
}

public struct TimetableView: Codable, Sendable {
    /// Upper case in JSON, like every other enum value the platform prints.
    public enum Span: String, Codable, Sendable {
        case day = "DAY"
        case week = "WEEK"
        case fortnight = "FORTNIGHT"
    }

    public let title: String
    public let span: Span
    /// The date asked for, and whether it was a day off so the next school day is shown instead.
    public let requested: CivilDate
    public let movedToNextSchoolDay: Bool
    public let cycleLength: Int
    public let periods: [Period]
    public let days: [DayPlan]
}

/// The grid for a day, a week or both weeks of the cycle, for a class, a teacher or a student.
public struct ViewTimetable: Action {
    public struct Input: Codable, Sendable {
        public var target: TimetableTarget
        public var date: String?
        public var span: TimetableView.Span
        public init(target: TimetableTarget = .mine, date: String? = nil, span: TimetableView.Span = .week) {
            self.target = target
            self.date = date
            self.span = span
        }
    }

    public static let id = "timetable.view"
    public static let permission = TimetablePermissions.read
    public static let isReadOnly = true

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        if let date = input.date, CivilDate(date) == nil { throw TimetableError.invalidDate(date) }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> TimetableView {
        let calendar = try SchoolCalendar.load(context)
        let whose = try TargetResolver.resolve(input.target, context)
        let slots = try SlotQueries.slots(classID: whose.classID, teacherID: whose.teacherID, context)
        let requested = input.date.flatMap(CivilDate.init) ?? context.today
        let shown = calendar.isSchoolDay(requested) || input.span == .fortnight ? requested : (calendar.nextSchoolDay(onOrAfter: requested) ?? requested)
        let days: [DayPlan]
        switch input.span {
        case .day:
            days = [plan(shown, calendar, slots)]
        case .week:
            let start = calendar.weekStart(of: shown)
            days = (0..<7).map { start.adding(days: $0) }.filter { calendar.workingDays.contains($0.weekday) }.map { plan($0, calendar, slots) }
        case .fortnight:
            days = (0..<7).map { (calendar.weekStartDay + $0) % 7 }.filter(calendar.workingDays.contains).map { weekday in
                DayPlan(date: nil, weekday: weekday, week: .noSchool, isSchoolDay: true, lessons: slots.filter { $0.day == weekday })
            }
        }
        return TimetableView(title: whose.title, span: input.span, requested: requested, movedToNextSchoolDay: shown != requested,
                             cycleLength: calendar.cycleLength, periods: try SlotQueries.periods(context), days: days)
    }

    private func plan(_ date: CivilDate, _ calendar: CycleCalendar, _ slots: [Slot]) -> DayPlan {
        let week = calendar.week(of: date)
        let open = calendar.isSchoolDay(date)
        let lessons: [Slot]
        if case .week(let index) = week, open {
            lessons = slots.filter { $0.day == date.weekday && $0.runs(in: index) }
        } else {
            lessons = []
        }
        return DayPlan(date: date, weekday: date.weekday, week: week, isSchoolDay: open, lessons: lessons)
    }
}

/// The lesson happening now and the next one, for the signed-in user, in the school's time zone.
public struct NowAndNext: Action {
    public struct Input: Codable, Sendable {
        public var target: TimetableTarget
        public init(target: TimetableTarget = .mine) { self.target = target }
    }

    public struct Lesson: Codable, Sendable, Equatable {
        public let date: CivilDate
        public let week: CycleWeek
        public let slot: Slot
    }

    public struct Output: Codable, Sendable {
        public let title: String
        public let now: String
        public let current: Lesson?
        public let next: Lesson?
    }

    public static let id = "timetable.now"
    public static let permission = TimetablePermissions.read
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        let calendar = try SchoolCalendar.load(context)
        let whose = try TargetResolver.resolve(input.target, context)
        let slots = try SlotQueries.slots(classID: whose.classID, teacherID: whose.teacherID, context)
        return Self.answer(title: whose.title, today: context.today, time: SchoolCalendar.timeOfDay(context), calendar: calendar, slots: slots)
    }

    /// Pure so it can be measured and tested without a database: today's lessons, then the next
    /// school days' (looking two cycles ahead at most).
    public static func answer(title: String, today: CivilDate, time: String, calendar: CycleCalendar, slots: [Slot]) -> Output {
        func lessons(on date: CivilDate) -> [Lesson] {
            guard calendar.isSchoolDay(date), case .week(let index) = calendar.week(of: date) else { return [] }
            return slots.filter { $0.day == date.weekday && $0.runs(in: index) }.sorted { $0.startsAt < $1.startsAt }
                .map { Lesson(date: date, week: .week(index), slot: $0) }
        }
        let todays = lessons(on: today)
        let current = todays.first { $0.slot.startsAt <= time && time < $0.slot.endsAt }
        var next = todays.first { $0.slot.startsAt > time }
        var day = today
        while next == nil && day.dayNumber - today.dayNumber < 7 * calendar.cycleLength + 7 {
            day = day.adding(days: 1)
            next = lessons(on: day).first
        }
        return Output(title: title, now: time, current: current, next: next)
    }
}

/// Works out whose slots a view shows, and refuses what the principal may not see.
///
/// A class's or a teacher's grid names no student, so it follows the timetable's own grant. A
/// student's grid shows their name and class, so it follows the roster's grant as well: an
/// accountant (no `students.read`) is refused, a teacher reaches the students of the classes she
/// teaches or is homeroom teacher of, a guardian their children, a student themself, exactly as
/// `students show` does.
enum TargetResolver {
    struct Whose {
        let classID: String?
        let teacherID: String?
        let title: String
    }

    static func resolve(_ target: TimetableTarget, _ context: ActionContext) throws -> Whose {
        switch target {
        case .classCode(let code):
            let classID = try Roster.classID(code: code, context)
            if context.scope != .school {
                let mine = try Roster.visibleStudents(context).compactMap(\.classCode)
                // Not one's own class: answered as a class that does not exist.
                guard mine.contains(code) else { throw StudentsError.unknownClass(code) }
            }
            return Whose(classID: classID, teacherID: nil, title: code)
        case .teacher(let email):
            guard context.scope == .school else { throw TimetableError.unknownTeacher(email) }
            return Whose(classID: nil, teacherID: try SlotQueries.teacherID(email: email, context), title: email)
        case .student(let gr):
            return try classOf(try Roster.rosterVisibleStudent(gr: gr, context), context)
        case .mine:
            return try mine(context)
        }
    }

    /// The signed-in user's own grid: a teacher's teaching, a student's class, a guardian's only child.
    private static func mine(_ context: ActionContext) throws -> Whose {
        switch context.principal.role {
        case .teacher:
            return Whose(classID: nil, teacherID: context.principal.userID, title: context.principal.displayName)
        case .student, .guardian:
            return try classOf(try Roster.ownStudent(context), context)
        default:
            throw TimetableError.chooseTarget
        }
    }

    private static func classOf(_ student: Student, _ context: ActionContext) throws -> Whose {
        guard let code = student.classCode else { throw TimetableError.chooseTarget }
        return Whose(classID: try Roster.classID(code: code, context), teacherID: nil, title: "\(student.fullName) (\(code))")
    }
}
