import Core
import Foundation

/// Attendance as an Ed-Fi ODS/API takes it: the JSON bodies of `studentSchoolAttendanceEvents`
/// (whole-day records) and `studentSectionAttendanceEvents` (a period's records), each with the
/// references the API requires. Our school is the Ed-Fi `schoolId` the school sets
/// (`attendance.ed-fi-school-id`); a session is the term the date falls in (`sessionName` its
/// English name, `schoolYear` the calendar year its school year ends in); a section is a class in
/// one period (`sectionIdentifier` `7A-P1`, `localCourseCode` the class code). Records on a date
/// no term covers cannot name a session, so they are counted as left out, never sent half-made.
public struct ExportEdFiEvents: Action {
    /// The same class and date range as the CSV export.
    public typealias Input = ExportEdFi.Input

    public struct Output: Codable, Sendable, Equatable {
        public let studentSchoolAttendanceEvents: [SchoolEvent]
        public let studentSectionAttendanceEvents: [SectionEvent]
        /// Records on dates outside every term (no Ed-Fi session to name).
        public let leftOut: Int
    }

    public struct SchoolReference: Codable, Sendable, Equatable { public let schoolId: Int }
    public struct SessionReference: Codable, Sendable, Equatable {
        public let schoolId: Int
        public let schoolYear: Int
        public let sessionName: String
    }
    public struct StudentReference: Codable, Sendable, Equatable { public let studentUniqueId: String }
    public struct SectionReference: Codable, Sendable, Equatable {
        public let localCourseCode: String
        public let schoolId: Int
        public let schoolYear: Int
        public let sectionIdentifier: String
        public let sessionName: String
    }

    public struct SchoolEvent: Codable, Sendable, Equatable {
        public let attendanceEventCategoryDescriptor: String
        public let eventDate: String
        public let schoolReference: SchoolReference
        public let sessionReference: SessionReference
        public let studentReference: StudentReference
    }

    public struct SectionEvent: Codable, Sendable, Equatable {
        public let attendanceEventCategoryDescriptor: String
        public let eventDate: String
        public let sectionReference: SectionReference
        public let studentReference: StudentReference
    }

    public static let id = "attendance.export-ed-fi-events"
    public static let permission = AttendancePermissions.stats
    public static let isReadOnly = true

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        try ExportEdFi().validate(input, in: context)
        guard try context.setting(AttendanceSettings.edFiSchoolID) > 0 else { throw EdFiSchoolUnset() }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        let schoolID = try context.setting(AttendanceSettings.edFiSchoolID)
        let rows = try ExportEdFi().perform(input, in: context)
        let sessions = try EdFiSessions(context)
        var (school, section, leftOut) = ([SchoolEvent](), [SectionEvent](), 0)
        for row in rows {
            let date = row.eventDate.description
            guard let session = sessions.covering(date) else {
                leftOut += 1
                continue
            }
            let student = StudentReference(studentUniqueId: row.studentUniqueId)
            if row.classPeriod.isEmpty {
                school.append(SchoolEvent(attendanceEventCategoryDescriptor: row.attendanceEventCategoryDescriptor, eventDate: date,
                                          schoolReference: SchoolReference(schoolId: schoolID),
                                          sessionReference: SessionReference(schoolId: schoolID, schoolYear: session.year, sessionName: session.name),
                                          studentReference: student))
            } else {
                section.append(SectionEvent(attendanceEventCategoryDescriptor: row.attendanceEventCategoryDescriptor, eventDate: date,
                                            sectionReference: SectionReference(localCourseCode: row.classCode, schoolId: schoolID, schoolYear: session.year,
                                                                               sectionIdentifier: "\(row.classCode)-\(row.classPeriod)", sessionName: session.name),
                                            studentReference: student))
            }
        }
        return Output(studentSchoolAttendanceEvents: school, studentSectionAttendanceEvents: section, leftOut: leftOut)
    }
}

/// The school's terms as Ed-Fi sessions: a name, and the year their school year ends in.
struct EdFiSessions {
    struct Session {
        let starts: String
        let ends: String
        let name: String
        let year: Int
    }

    let all: [Session]

    init(_ context: ActionContext) throws {
        let rows = try context.database.fetchAll("""
            SELECT t.name_en, t.starts_on, t.ends_on,
                   (SELECT MAX(o.ends_on) FROM students_v1_terms o WHERE o.school_id = t.school_id AND o.school_year_id = t.school_year_id) AS year_ends
            FROM students_v1_terms t WHERE t.school_id = :school_id ORDER BY t.starts_on
            """)
        all = rows.map { row in
            Session(starts: row.string("starts_on"), ends: row.string("ends_on"), name: row.string("name_en"),
                    year: Int(row.string("year_ends").prefix(4)) ?? 0)
        }
    }

    func covering(_ date: String) -> Session? {
        all.first { $0.starts <= date && date <= $0.ends }
    }
}

/// The export names the school as the ODS knows it, and nothing else can stand in for that.
public struct EdFiSchoolUnset: HogwartsError {
    public var messageKey: String { "attendance.error.ed-fi-school-unset" }
    public var exitStatus: ExitStatus { .configuration }
}
