import Core
import Foundation
import Students

/// One exception to the default status, by GR number or by the student's line in the class list.
public struct AttendanceMark: Codable, Sendable, Equatable {
    /// A GR number, or digits only for the student's position in the printed class list.
    public var student: String
    public var status: AttendanceStatus
    public var notes: String?

    public init(student: String, status: AttendanceStatus, notes: String? = nil) {
        self.student = student
        self.status = status
        self.notes = notes
    }
}

/// The class list with what is recorded so far: what a teacher sees before taking attendance.
public struct ClassRegister: Action {
    public struct Input: Codable, Sendable {
        /// The class by code (the command line) or by id (the API's `section_id`); one of them.
        public var classCode: String?
        public var classID: String?
        public var date: String?
        public var period: String?
        public init(classCode: String, date: String? = nil, period: String? = nil) {
            self.classCode = classCode
            self.date = date
            self.period = period
        }

        public init(classID: String, date: String? = nil, period: String? = nil) {
            self.classID = classID
            self.date = date
            self.period = period
        }
    }

    public struct Line: Codable, Sendable, Equatable {
        public let position: Int
        public let studentID: String
        public let grNumber: String
        public let name: String
        public let status: AttendanceStatus?
        public let notes: String?
    }

    /// The register of one class on one date and period (today and the whole day by default).
    public struct Output: Codable, Sendable, Equatable {
        public let classID: String
        public let classCode: String
        public let date: CivilDate
        public let period: String
        public let lines: [Line]
        /// Who saved this register last and when; nil when it was never taken.
        public var taken: RegisterTaken? = nil
        /// Why the school's calendar calls the date a day off; nil on a school day or without a timetable.
        public var dayOff: RegisterDayOff? = nil
    }

    public static let id = "attendance.register"
    public static let permission = AttendancePermissions.mark
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        let session = try ClassSession(classID: input.classID, classCode: input.classCode, date: input.date, period: input.period, forWriting: false, context)
        try ClassAccess.require(classID: session.classID, named: input.classID ?? session.classCode, context)
        return Output(classID: session.classID, classCode: session.classCode, date: session.date, period: session.period, lines: session.members.map {
            Line(position: $0.position, studentID: $0.studentID, grNumber: $0.grNumber, name: $0.name, status: $0.status, notes: $0.notes)
        }, taken: try RegisterFacts.taken(classID: session.classID, date: session.date, period: session.period, context),
           dayOff: RegisterFacts.dayOff(session.date, context))
    }
}

/// Takes a whole class in one step: everyone gets the default status (PRESENT) except the marks.
/// All or nothing; marking again updates the records (never a duplicate) and keeps the history.
public struct TakeAttendance: Action {
    public struct Input: Codable, Sendable {
        public var classCode: String
        public var date: String?
        public var period: String?
        public var defaultStatus: AttendanceStatus
        public var marks: [AttendanceMark]
        public var method: AttendanceMethod

        public init(classCode: String, date: String? = nil, period: String? = nil, defaultStatus: AttendanceStatus = .present,
                    marks: [AttendanceMark] = [], method: AttendanceMethod = .manual) {
            self.classCode = classCode
            self.date = date
            self.period = period
            self.defaultStatus = defaultStatus
            self.marks = marks
            self.method = method
        }
    }

    public struct Output: Codable, Sendable, Equatable {
        public let classCode: String
        public let date: CivilDate
        public let period: String
        public let totals: AttendanceTotals
        public let created: Int
        public let changed: Int
    }

    public static let id = "attendance.take"
    public static let permission = AttendancePermissions.mark

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        _ = try RegisterTaking.validate(input, key: Self.sessionKey, context)
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        let session = try RegisterTaking.session(input, key: Self.sessionKey, context)
        let output = try RegisterTaking.take(input, session: session, context)
        context.auditDetail = RegisterTaking.auditLine(output)
        return output
    }

    /// The class as it stands, read once for validation and the body.
    private static let sessionKey = "attendance.session"
}

extension TakeAttendance.Input {
    /// Only the class is required: a register in a file or a request may leave out the date
    /// (today), the period (the whole day), the default status (PRESENT), marks and method.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(classCode: try container.decode(String.self, forKey: .classCode),
                  date: try container.decodeIfPresent(String.self, forKey: .date),
                  period: try container.decodeIfPresent(String.self, forKey: .period),
                  defaultStatus: try container.decodeIfPresent(AttendanceStatus.self, forKey: .defaultStatus) ?? .present,
                  marks: try container.decodeIfPresent([AttendanceMark].self, forKey: .marks) ?? [],
                  method: try container.decodeIfPresent(AttendanceMethod.self, forKey: .method) ?? .manual)
    }
}
