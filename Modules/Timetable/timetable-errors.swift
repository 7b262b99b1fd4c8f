import Core

public enum TimetableError: HogwartsError, Equatable {
    case clash(what: String, slot: String)
    case unknownPeriod(String)
    case breakPeriod(String)
    case unknownSlot(String)
    case unknownSubject(String)
    case unknownTeacher(String)
    case notWorkingDay(Int)
    case weekOutsideCycle(String)
    case chooseTarget
    case invalidDate(String)
    case invalidTime(String)
    case noSchoolAhead
    /// The API's `:userId` names no student or teacher the school has.
    case unknownPerson(String)
    /// `teacher/schedule` for someone who teaches nothing.
    case noTeaching
    case invalidDay(String)

    public var messageKey: String {
        switch self {
        case .clash(let what, _): "timetable.error.clash.\(what)"
        case .unknownPeriod: "timetable.error.unknown-period"
        case .breakPeriod: "timetable.error.break-period"
        case .unknownSlot: "timetable.error.unknown-slot"
        case .unknownSubject: "timetable.error.unknown-subject"
        case .unknownTeacher: "timetable.error.unknown-teacher"
        case .notWorkingDay: "timetable.error.not-working-day"
        case .weekOutsideCycle: "timetable.error.week-outside-cycle"
        case .chooseTarget: "timetable.error.choose-target"
        case .invalidDate: "timetable.error.invalid-date"
        case .invalidTime: "timetable.error.invalid-time"
        case .noSchoolAhead: "timetable.error.no-school-ahead"
        case .unknownPerson: "timetable.error.unknown-person"
        case .noTeaching: "timetable.error.no-teaching"
        case .invalidDay: "timetable.error.invalid-day"
        }
    }

    public var messageArguments: [String: String] {
        switch self {
        case .clash(_, let slot): ["slot": slot]
        case .unknownPeriod(let value), .breakPeriod(let value), .unknownSlot(let value), .unknownSubject(let value),
             .unknownTeacher(let value), .weekOutsideCycle(let value), .invalidDate(let value),
             .invalidTime(let value), .unknownPerson(let value), .invalidDay(let value):
            ["value": value]
        case .notWorkingDay(let day): ["value": Weekday.codes[day]]
        case .chooseTarget, .noSchoolAhead, .noTeaching: [:]
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .clash: .conflict
        case .unknownPeriod, .unknownSlot, .unknownSubject, .unknownTeacher, .unknownPerson, .noTeaching: .notFound
        case .chooseTarget: .usage
        default: .invalidData
        }
    }
}
