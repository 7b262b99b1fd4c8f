import Core
import Foundation
import Students

/// Who an announcement reaches, read through the roster's and accounts' published views.
enum AnnouncementsAudience {
    /// The classes a person belongs to: a student's own, a guardian's children's, the classes a
    /// teacher teaches or is homeroom teacher of. Bound to `:me`.
    static let myClasses = """
        SELECT e.class_id FROM students_v1_enrolments e JOIN students_v1_students s ON s.school_id = e.school_id AND s.id = e.student_id
        WHERE e.school_id = :school_id AND s.user_id = :me
        UNION SELECT e.class_id FROM students_v1_enrolments e JOIN students_v1_guardian_links g ON g.school_id = e.school_id AND g.student_id = e.student_id
        WHERE e.school_id = :school_id AND g.guardian_user_id = :me
        UNION SELECT class_id FROM students_v1_teaching WHERE school_id = :school_id AND teacher_user_id = :me
        UNION SELECT id FROM students_v1_classes WHERE school_id = :school_id AND homeroom_teacher_id = :me
        """

    /// The condition on `p` (announcements_posts) for an announcement addressed to `:me` in `:role`.
    static let addressedToMe = """
        (p.audience = 'school' OR (p.audience = 'role' AND p.target = :role)
         OR (p.audience = 'class' AND p.target IN (\(myClasses)))
         OR (p.audience = 'year-level' AND p.target IN (SELECT c.year_level_id FROM students_v1_classes c
                                                         WHERE c.school_id = :school_id AND c.id IN (\(myClasses)))))
        """

    /// The condition for what the caller may read, with its arguments: everything for a
    /// school-wide grant, else what is addressed to them.
    static func visibility(_ context: ActionContext) -> (sql: String, arguments: SQLArguments) {
        let arguments: SQLArguments = ["me": .text(context.principal.userID), "role": .text(context.principal.role.rawValue)]
        return (context.scope == .school ? "1 = 1" : addressedToMe, arguments)
    }

    /// Every active account the audience reaches.
    static func recipients(_ audience: AnnouncementAudience, _ context: ActionContext) throws -> [String] {
        let classMembers = """
            SELECT s.user_id AS u FROM students_v1_enrolments e JOIN students_v1_students s ON s.school_id = e.school_id AND s.id = e.student_id
            WHERE e.school_id = :school_id AND e.class_id IN (CLASSES) AND s.user_id IS NOT NULL
            UNION SELECT g.guardian_user_id FROM students_v1_enrolments e
            JOIN students_v1_guardian_links g ON g.school_id = e.school_id AND g.student_id = e.student_id
            WHERE e.school_id = :school_id AND e.class_id IN (CLASSES) AND g.guardian_user_id IS NOT NULL
            UNION SELECT teacher_user_id FROM students_v1_teaching WHERE school_id = :school_id AND class_id IN (CLASSES)
            UNION SELECT homeroom_teacher_id FROM students_v1_classes WHERE school_id = :school_id AND id IN (CLASSES) AND homeroom_teacher_id IS NOT NULL
            """
        let members: String
        switch audience {
        case .school: members = "SELECT id AS u FROM auth_v1_people WHERE school_id = :school_id"
        case .role: members = "SELECT id AS u FROM auth_v1_people WHERE school_id = :school_id AND role = :target"
        case .class: members = classMembers.replacingOccurrences(of: "CLASSES", with: ":target")
        case .yearLevel:
            members = classMembers.replacingOccurrences(of: "CLASSES", with: "SELECT id FROM students_v1_classes WHERE school_id = :school_id AND year_level_id = :target")
        }
        return try context.database.fetchAll("""
            SELECT p.id FROM auth_v1_people p WHERE p.school_id = :school_id AND p.status = 'ACTIVE' AND p.id IN (\(members)) ORDER BY p.id
            """, ["target": .text(audience.target)]).map { $0.string("id") }
    }

    /// The audience a poster named (`school`, `role:TEACHER`, `class:7A`, `year-level:G7`), checked
    /// against the school's roster and the poster's reach: a teacher addresses only a class they teach.
    static func resolve(_ text: String, _ context: ActionContext) throws -> AnnouncementAudience {
        let parts = text.split(separator: ":", maxSplits: 1).map { String($0).trimmingCharacters(in: .whitespaces) }
        let kind = parts.first?.lowercased() ?? ""
        let value = parts.count > 1 ? parts[1] : ""
        let audience: AnnouncementAudience
        switch kind {
        case "school" where value.isEmpty, "all" where value.isEmpty:
            audience = .school
        case "role":
            guard let role = Role(rawValue: value.uppercased()) else { throw AnnouncementsError.unknownAudience(text) }
            audience = .role(role)
        case "class":
            guard let id = try? Roster.classID(code: value, context) else { throw AnnouncementsError.unknownAudience(text) }
            audience = .class(id)
        case "year-level":
            let id: String? = try context.database.fetchValue(
                "SELECT id FROM students_v1_year_levels WHERE school_id = :school_id AND code = :code", ["code": .text(value)])
            guard let id else { throw AnnouncementsError.unknownAudience(text) }
            audience = .yearLevel(id)
        default:
            throw AnnouncementsError.unknownAudience(text)
        }
        if context.scope != .school {
            guard case .class(let id) = audience, try Roster.teaches(classID: id, context) else { throw AnnouncementsError.notYourClass(value.isEmpty ? text : value) }
        }
        return audience
    }

    /// The code a reader knows a class or year level by.
    static func code(of audience: AnnouncementAudience, _ context: ActionContext) throws -> String? {
        switch audience {
        case .school, .role: return nil
        case .class(let id):
            return try context.database.fetchValue("SELECT code FROM students_v1_classes WHERE school_id = :school_id AND id = :id", ["id": .text(id)])
        case .yearLevel(let id):
            return try context.database.fetchValue("SELECT code FROM students_v1_year_levels WHERE school_id = :school_id AND id = :id", ["id": .text(id)])
        }
    }
}

/// One audience a poster may address, as a form offers it.
public struct AnnouncementAudienceChoice: Codable, Sendable, Equatable {
    /// What `PostAnnouncement` takes: `school`, `role:TEACHER`, `class:7A`, `year-level:G7`.
    public let value: String
    public let label: LocalizedText
}

/// The audiences the caller may post to: for an administrator the whole school, each role, each
/// class and year level of the current school year; for a teacher the classes they teach.
public struct AnnouncementAudienceChoices: Action {
    public struct Input: Codable, Sendable { public init() {} }

    public static let id = "announcements.audiences"
    public static let permission = AnnouncementsPermissions.post
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> [AnnouncementAudienceChoice] {
        let year = SQLValue(try Roster.currentSchoolYearID(context))
        let classes = try context.database.fetchAll("""
            SELECT c.id, c.code, c.name_ar, c.name_en FROM students_v1_classes c WHERE c.school_id = :school_id AND c.school_year_id = :year ORDER BY c.code
            """, ["year": year])
        let reachable = try classes.filter { row in
            if context.scope == .school { return true }
            return try Roster.teaches(classID: row.string("id"), context)
        }
        let classChoices = reachable.map {
            AnnouncementAudienceChoice(value: "class:\($0.string("code"))", label: LocalizedText(ar: $0.string("name_ar"), en: $0.string("name_en")))
        }
        guard context.scope == .school else { return classChoices }
        let levels = try context.database.fetchAll("""
            SELECT code, name_ar, name_en FROM students_v1_year_levels WHERE school_id = :school_id ORDER BY position, code
            """).map { AnnouncementAudienceChoice(value: "year-level:\($0.string("code"))", label: LocalizedText(ar: $0.string("name_ar"), en: $0.string("name_en"))) }
        let roles = [Role.teacher, .guardian, .student, .staff, .accountant, .admin].map {
            AnnouncementAudienceChoice(value: "role:\($0.rawValue)", label: AnnouncementsWords.role($0))
        }
        return [AnnouncementAudienceChoice(value: "school", label: AnnouncementsWords.wholeSchool)] + roles + levels + classChoices
    }
}

/// Words the console and the audience choices share.
enum AnnouncementsWords {
    static let wholeSchool = LocalizedText(ar: "المدرسة كلها", en: "The whole school")

    static func role(_ role: Role) -> LocalizedText {
        switch role {
        case .teacher: LocalizedText(ar: "المعلمون", en: "Teachers")
        case .guardian: LocalizedText(ar: "أولياء الأمور", en: "Guardians")
        case .student: LocalizedText(ar: "الطلاب", en: "Students")
        case .staff: LocalizedText(ar: "الموظفون", en: "Staff")
        case .accountant: LocalizedText(ar: "المحاسبون", en: "Accountants")
        case .admin: LocalizedText(ar: "الإدارة", en: "Administrators")
        case .developer: LocalizedText(ar: "المطورون", en: "Developers")
        case .user: LocalizedText(ar: "المستخدمون", en: "Users")
        }
    }
}
