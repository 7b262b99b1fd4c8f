import Core

/// Which students the running action's scope reaches, as this module's own condition on
/// `students_v1_students s` over the viewer view Students publishes (`students_v1_student_viewers`):
/// Students hands out no SQL, so a change to its tables never reaches this text.
enum AttendanceVisibility {
    /// The condition, using `:school_id` and `:viewer`; bind `viewer` with `arguments(for:)`.
    static func condition(for scope: AccessScope) -> String {
        switch scope {
        case .school: "1 = 1"
        case .ownClasses: viewers("TEACHER")
        case .linkedChildren: viewers("GUARDIAN")
        case .ownRecord: "s.user_id = :viewer"
        }
    }

    static func arguments(for context: ActionContext) -> SQLArguments {
        ["viewer": .text(context.principal.userID)]
    }

    private static func viewers(_ via: String) -> String {
        """
        s.id IN (SELECT v.student_id FROM students_v1_student_viewers v
                 WHERE v.school_id = :school_id AND v.viewer_user_id = :viewer AND v.via = '\(via)')
        """
    }
}
