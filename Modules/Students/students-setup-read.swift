import Core
import Foundation

/// What a school's set-up holds, in one read: its school years and terms, year levels, this
/// year's classes, subjects, the active teachers, and who teaches what. The set-up page lists
/// these and offers them as choices.
public struct RosterSetup: Codable, Sendable, Equatable {
    public struct YearLevel: Codable, Sendable, Equatable {
        public let code: String
        public let name: LocalizedText
        public let position: Int
    }

    public struct Teacher: Codable, Sendable, Equatable {
        public let email: String
        public let displayName: String
    }

    public struct Teaching: Codable, Sendable, Equatable {
        public let classCode: String
        public let subjectCode: String
        public let teacherEmail: String
    }

    public let years: [StudentsPublishedReads.SchoolYear]
    public let terms: [Term]
    public let yearLevels: [YearLevel]
    public let classes: [SchoolClass]
    public let subjects: [Subject]
    public let teachers: [Teacher]
    public let teaching: [Teaching]
}

public struct ShowRosterSetup: Action {
    public struct Input: Codable, Sendable { public init() {} }

    public static let id = "students.show-setup"
    public static let permission = StudentsPermissions.manageRoster
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> RosterSetup {
        let db = context.database
        let levels = try db.fetchAll("SELECT code, name_ar, name_en, position FROM students_year_levels WHERE school_id = :school_id ORDER BY position, code").map {
            RosterSetup.YearLevel(code: $0.string("code"), name: LocalizedText(ar: $0.string("name_ar"), en: $0.string("name_en")), position: $0.int("position"))
        }
        let teachers = try db.fetchAll("""
            SELECT email, display_name FROM auth_v1_people WHERE school_id = :school_id AND role = 'TEACHER' AND status = 'ACTIVE' ORDER BY display_name, email
            """).map { RosterSetup.Teacher(email: $0.string("email"), displayName: $0.string("display_name")) }
        let teaching = try db.fetchAll("""
            SELECT c.code AS class_code, s.code AS subject_code, p.email FROM students_teaching t
            JOIN students_classes c ON c.school_id = t.school_id AND c.id = t.class_id
            JOIN students_subjects s ON s.school_id = t.school_id AND s.id = t.subject_id
            JOIN auth_v1_people p ON p.school_id = t.school_id AND p.id = t.teacher_user_id
            WHERE t.school_id = :school_id AND c.school_year_id = :year ORDER BY c.code, s.code
            """, ["year": SQLValue(try Roster.currentSchoolYearID(context))]).map {
            RosterSetup.Teaching(classCode: $0.string("class_code"), subjectCode: $0.string("subject_code"), teacherEmail: $0.string("email"))
        }
        return RosterSetup(years: try StudentsPublishedReads.schoolYears(context), terms: try ListTerms().perform(.init(), in: context), yearLevels: levels,
                           classes: try ListClasses().perform(.init(), in: context), subjects: try ListSubjects().perform(.init(), in: context),
                           teachers: teachers, teaching: teaching)
    }
}
