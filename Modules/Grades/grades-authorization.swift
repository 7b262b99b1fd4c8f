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

/// Who may write and read which grades.
///
/// - Writing (adding an assessment, entering or changing results) belongs to the teacher who
///   teaches that subject in that class, and to admins and developers (the PRD's matrix: grading
///   is the subject teacher's). Being the class's homeroom teacher is not enough: she did not set
///   the ENG quiz, so she may not mark it. Every grades write goes through `requireSubjectTeacher`.
/// - Reading follows `grades.read`'s roster scope: a teacher reads every result of the students
///   in the classes she teaches or is homeroom teacher of, all subjects included, so a homeroom
///   teacher can follow her class; students read their own, guardians their children's.
enum GradesAccess {
    /// Refuses anyone below school scope who does not teach the subject in the class.
    static func requireSubjectTeacher(classID: String, subjectID: String, classCode: String, subjectCode: String, _ context: ActionContext) throws {
        guard context.scope != .school else { return }
        if try !Roster.teachesSubject(classID: classID, subjectID: subjectID, context) {
            throw GradesError.notYourSubject(classCode: classCode, subjectCode: subjectCode)
        }
    }

    /// The assessment's class id, once the principal is its subject teacher (or an administrator):
    /// the one door for reading and entering an assessment's results.
    /// An assessment of a class the teacher has nothing to do with answers as one that does not
    /// exist (named as the caller named it, `reference`); her own class's, of another subject, is hers to see but not to mark.
    static func requireAssessmentTeacher(_ assessment: Assessment, named reference: String, _ context: ActionContext) throws -> String {
        let classID = try Roster.classID(code: assessment.classCode, context)
        if context.scope != .school, try !Roster.teaches(classID: classID, context) { throw GradesError.unknownAssessment(reference) }
        let subjectID: String = try context.database.fetchValue("SELECT subject_id FROM grades_assessments WHERE school_id = :school_id AND id = :id",
                                                                ["id": .text(assessment.id)]) ?? ""
        try requireSubjectTeacher(classID: classID, subjectID: subjectID, classCode: assessment.classCode, subjectCode: assessment.subjectCode, context)
        return classID
    }

    /// An SQL condition on `grades_assessments a` for the assessments a principal may list: all
    /// at school scope, else those of the subjects she teaches and of her homeroom classes.
    /// Binds `:me` and `:all`.
    static let listable = """
        (:all = 1 OR EXISTS (SELECT 1 FROM students_v1_teaching t WHERE t.school_id = a.school_id AND t.class_id = a.class_id
                                 AND t.subject_id = a.subject_id AND t.teacher_user_id = :me)
                  OR EXISTS (SELECT 1 FROM students_v1_classes h WHERE h.school_id = a.school_id AND h.id = a.class_id AND h.homeroom_teacher_id = :me))
        """

    static func listArguments(_ context: ActionContext) -> SQLArguments {
        ["me": .text(context.principal.userID), "all": .integer(context.scope == .school ? 1 : 0)]
    }
}
