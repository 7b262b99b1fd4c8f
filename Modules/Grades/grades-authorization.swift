import Core

/// GRADE-001..005 and the matrix: teachers enter and see their own classes' results, students
/// their own, guardians their children's, admins all; only admins set scales and weights,
/// publish report cards and override grades.
public enum GradesPermissions {
    public static let read: Permission = "grades.read"
    public static let enter: Permission = "grades.enter"
    public static let manage: Permission = "grades.manage"

    static var definitions: [PermissionDefinition] {
        [
            PermissionDefinition(read, summary: LocalizedText(ar: "عرض النتائج والشهادات", en: "See results and report cards"), grants: [
                .developer: .school, .admin: .school, .teacher: .ownClasses, .student: .ownRecord, .guardian: .linkedChildren,
            ]),
            PermissionDefinition(enter, summary: LocalizedText(ar: "إدخال الدرجات", en: "Enter grades"),
                                 grants: [.developer: .school, .admin: .school, .teacher: .ownClasses]),
            PermissionDefinition(manage, summary: LocalizedText(ar: "سلّم الدرجات والنشر والتعديل", en: "Scales, publishing and overrides"), grants: .administrators),
        ]
    }
}

enum GradesAccess {
    /// Refuses a teacher who neither teaches the subject in the class nor is its homeroom teacher.
    static func requireTeaching(classID: String, subjectID: String, classCode: String, _ context: ActionContext) throws {
        guard context.scope != .school else { return }
        let count: Int = try context.database.fetchValue("""
            SELECT COUNT(*) FROM (
                SELECT class_id FROM students_teaching WHERE school_id = :school_id AND class_id = :class AND subject_id = :subject AND teacher_user_id = :me
                UNION SELECT id FROM students_classes WHERE school_id = :school_id AND id = :class AND homeroom_teacher_id = :me) AS taught
            """, ["class": .text(classID), "subject": .text(subjectID), "me": .text(context.principal.userID)]) ?? 0
        if count == 0 { throw GradesError.notYourClass(classCode) }
    }
}
