import Core
import Students

/// The PRD's matrix (ATT-001..006) with the rules: teachers mark and review only their own
/// classes, admins any class; guardians submit excuses for their children; students check in and
/// see their own record; staff read.
public enum AttendancePermissions {
    public static let mark: Permission = "attendance.mark"
    public static let read: Permission = "attendance.read"
    public static let stats: Permission = "attendance.stats"
    public static let submitExcuse: Permission = "attendance.excuse.submit"
    public static let reviewExcuse: Permission = "attendance.excuse.review"
    public static let checkIn: Permission = "attendance.check-in"

    static var definitions: [PermissionDefinition] {
        [
            PermissionDefinition(mark, summary: LocalizedText(ar: "تسجيل الحضور", en: "Take attendance"),
                                 grants: [.developer: .school, .admin: .school, .teacher: .ownClasses]),
            PermissionDefinition(read, summary: LocalizedText(ar: "عرض سجلات الحضور", en: "See attendance records"), grants: [
                .developer: .school, .admin: .school, .staff: .school, .teacher: .ownClasses, .student: .ownRecord, .guardian: .linkedChildren,
            ]),
            PermissionDefinition(stats, summary: LocalizedText(ar: "إحصاءات الحضور", en: "Attendance statistics"),
                                 grants: [.developer: .school, .admin: .school, .staff: .school, .teacher: .ownClasses]),
            PermissionDefinition(submitExcuse, summary: LocalizedText(ar: "تقديم عذر غياب", en: "Submit an absence excuse"),
                                 grants: [.developer: .school, .admin: .school, .guardian: .linkedChildren]),
            PermissionDefinition(reviewExcuse, summary: LocalizedText(ar: "البت في أعذار الغياب", en: "Decide absence excuses"),
                                 grants: [.developer: .school, .admin: .school, .teacher: .ownClasses]),
            PermissionDefinition(checkIn, summary: LocalizedText(ar: "تسجيل الحضور برمز QR", en: "Check in with a QR code"),
                                 grants: [.student: .ownRecord]),
        ]
    }
}

/// Class-level checks shared by marking, check-in windows and excuse review.
enum ClassAccess {
    /// Refuses a teacher who does not teach the class; the school scope passes. Another
    /// teacher's class answers as a class that does not exist, named as the caller named it
    /// (`reference`: its id or code), so the answer tells nothing about it.
    static func require(classID: String, named reference: String, _ context: ActionContext) throws {
        if context.scope != .school, try !RosterFacts.teaches(classID: classID, context) {
            throw StudentsError.unknownClass(reference)
        }
    }
}

/// Which dates attendance may be written on.
enum AttendanceAccess {
    /// Refuses a date outside every school year of the school: a register for 0001-01-01 or
    /// for a year nobody planned is a typo, and it would count in every rate and export.
    /// Looked up once per run and date, so a batch of registers for one day asks once.
    static func requireSchoolYear(_ date: CivilDate, _ context: ActionContext) throws {
        let inYear = try context.remember("attendance.school-years.\(date)") { try RosterFacts.hasSchoolYear(containing: date, context) }
        if !inYear { throw AttendanceError.outsideSchoolYear(date.description) }
    }
}
