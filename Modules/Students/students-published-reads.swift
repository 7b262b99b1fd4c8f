import Core
import Foundation

/// Whole-school reads Students publishes for the modules that depend on it: values, never SQL,
/// so its tables can change without breaking them. Each needs the caller to hold the permission
/// that guards the data school-wide (an export run by an administrator), else it is refused.
public enum StudentsPublishedReads {
    /// Who teaches which subject in which class.
    public struct TeachingAssignment: Codable, Sendable, Equatable {
        public let classID: String
        public let subjectID: String
        public let teacherID: String
    }

    public struct SchoolYear: Codable, Sendable, Equatable {
        public let id: String
        /// `2026-2027`.
        public let name: String
        /// `YYYY-MM-DD`, both days included.
        public let startsOn: String
        public let endsOn: String
    }

    /// A guardian and one student they are linked to (a guardian of two children: two links).
    public struct GuardianLink: Codable, Sendable, Equatable {
        public let guardianID: String
        public let studentID: String
        public let givenName: String
        public let surname: String
        public let email: String?
        public let relation: GuardianRelation
    }

    /// Every teaching assignment of the school, by class then subject.
    public static func teaching(_ context: ActionContext) throws -> [TeachingAssignment] {
        try context.published(by: StudentsModule.moduleID) {
            try requireSchoolWide(StudentsPermissions.readRoster, context)
            return try context.database.fetchAll("""
                SELECT class_id, subject_id, teacher_user_id FROM students_teaching WHERE school_id = :school_id ORDER BY class_id, subject_id
                """).map { TeachingAssignment(classID: $0.string("class_id"), subjectID: $0.string("subject_id"), teacherID: $0.string("teacher_user_id")) }
        }
    }

    /// Every school year, earliest first.
    public static func schoolYears(_ context: ActionContext) throws -> [SchoolYear] {
        try context.published(by: StudentsModule.moduleID) {
            try requireSchoolWide(StudentsPermissions.readRoster, context)
            return try context.database.fetchAll("SELECT id, name, starts_on, ends_on FROM students_school_years WHERE school_id = :school_id ORDER BY starts_on")
                .map { SchoolYear(id: $0.string("id"), name: $0.string("name"), startsOn: $0.string("starts_on"), endsOn: $0.string("ends_on")) }
        }
    }

    /// Every guardian link of the school, by guardian then student.
    public static func guardianLinks(_ context: ActionContext) throws -> [GuardianLink] {
        try context.published(by: StudentsModule.moduleID) {
            try requireSchoolWide(StudentsPermissions.read, context)
            return try context.database.fetchAll("""
                SELECT sg.guardian_id, sg.student_id, sg.relation, g.given_name, g.surname, g.email FROM students_student_guardians sg
                JOIN students_guardians g ON g.school_id = sg.school_id AND g.id = sg.guardian_id
                WHERE sg.school_id = :school_id ORDER BY sg.guardian_id, sg.student_id
                """).map {
                GuardianLink(guardianID: $0.string("guardian_id"), studentID: $0.string("student_id"), givenName: $0.string("given_name"),
                             surname: $0.string("surname"), email: $0["email"], relation: GuardianRelation(rawValue: $0.string("relation")) ?? .guardian)
            }
        }
    }

    /// These reads are whole-school: a narrower grant (a teacher's own classes) is refused, not filtered.
    private static func requireSchoolWide(_ permission: Permission, _ context: ActionContext) throws {
        guard context.scope(for: permission) == .school else {
            throw KernelError.permissionDenied(permission: permission.id, role: context.principal.role)
        }
    }
}
