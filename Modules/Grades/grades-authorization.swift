import Core
import Students

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
        if try !Roster.teaches(classID: classID, subjectID: subjectID, context) { throw GradesError.notYourClass(classCode) }
    }
}
