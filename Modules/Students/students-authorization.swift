import Core

/// The permission matrix for the roster (seeds 001 and 003, as issue 3 states it): admins
/// create, edit and archive; teachers see their own classes; students see themselves;
/// guardians their children; staff read.
public enum StudentsPermissions {
    public static let read: Permission = "students.read"
    public static let manage: Permission = "students.manage"
    /// Years, terms, year levels, classes, subjects, enrolments, teaching, guardians.
    public static let manageRoster: Permission = "students.roster.manage"
    public static let readRoster: Permission = "students.roster.read"

    static var definitions: [PermissionDefinition] {
        [
            PermissionDefinition(read, summary: LocalizedText(ar: "عرض الطلاب", en: "See students"), grants: [
                .developer: .school, .admin: .school, .staff: .school, .teacher: .ownClasses,
                .student: .ownRecord, .guardian: .linkedChildren,
            ]),
            PermissionDefinition(manage, summary: LocalizedText(ar: "إضافة الطلاب وتعديلهم وأرشفتهم", en: "Add, edit and archive students"), grants: .administrators),
            PermissionDefinition(manageRoster, summary: LocalizedText(ar: "إدارة الصفوف والمواد والفصول الدراسية", en: "Manage classes, subjects and terms"), grants: .administrators),
            PermissionDefinition(readRoster, summary: LocalizedText(ar: "عرض الصفوف والمواد والفصول الدراسية", en: "See classes, subjects and terms"), grants: [
                .developer: .school, .admin: .school, .staff: .school, .teacher: .school, .accountant: .school,
                .student: .school, .guardian: .school,
            ]),
        ]
    }
}

/// Which students a principal may see, as an SQL condition on `students_students s`, for the
/// scope the kernel granted: Students' own reads. Other modules use `viewerCondition`, the same
/// rule over the published views only, or ask `canSee`: no text naming Students' tables leaves it.
public enum StudentVisibility {
    /// The condition, using `:school_id` and `:viewer`; bind `viewer` with `arguments(for:)`.
    static func condition(for scope: AccessScope) -> String {
        switch scope {
        case .school:
            "1 = 1"
        case .ownClasses:
            """
            s.id IN (SELECT e.student_id FROM students_enrolments e WHERE e.school_id = :school_id AND e.class_id IN (
                SELECT t.class_id FROM students_teaching t WHERE t.school_id = :school_id AND t.teacher_user_id = :viewer
                UNION SELECT c.id FROM students_classes c WHERE c.school_id = :school_id AND c.homeroom_teacher_id = :viewer))
            """
        case .linkedChildren:
            """
            s.id IN (SELECT sg.student_id FROM students_student_guardians sg
                JOIN students_guardians g ON g.school_id = sg.school_id AND g.id = sg.guardian_id
                WHERE sg.school_id = :school_id AND g.user_id = :viewer)
            """
        case .ownRecord:
            "s.user_id = :viewer"
        }
    }

    public static func arguments(for context: ActionContext) -> SQLArguments {
        ["viewer": .text(context.principal.userID)]
    }

    /// The same rule as a condition on the published view `students_v1_students s`, over the
    /// published `students_v1_student_viewers`, for other modules' queries (Attendance's and
    /// Grades' reports): it names only published views, so it holds however these tables change.
    /// Uses `:school_id` and `:viewer`; bind `viewer` with `arguments(for:)`.
    public static func viewerCondition(for scope: AccessScope) -> String {
        switch scope {
        case .school: "1 = 1"
        case .ownClasses: viewers(via: "TEACHER")
        case .linkedChildren: viewers(via: "GUARDIAN")
        case .ownRecord: "s.user_id = :viewer"
        }
    }

    private static func viewers(via: String) -> String {
        """
        s.id IN (SELECT v.student_id FROM students_v1_student_viewers v
                 WHERE v.school_id = :school_id AND v.viewer_user_id = :viewer AND v.via = '\(via)')
        """
    }

    /// Whether the principal may see this student; the kernel has already checked the permission.
    /// `scope` defaults to the running action's; pass the roster's for a read that shows a student
    /// under another permission.
    public static func canSee(studentID: String, scope: AccessScope? = nil, in context: ActionContext) throws -> Bool {
        try context.published(by: StudentsModule.moduleID) {
            let visible: Int = try context.database.fetchValue(
                "SELECT COUNT(*) FROM students_students s WHERE s.school_id = :school_id AND s.id = :student AND \(condition(for: scope ?? context.scope))",
                arguments(for: context).merging(["student": .text(studentID)]) { $1 }) ?? 0
            return visible > 0
        }
    }
}
