import Core

/// Who sees which timetable (the reference's table): admins and developers everything; teachers,
/// staff and accountants view all; students their own class; guardians their children's.
public enum TimetablePermissions {
    public static let read: Permission = "timetable.read"
    public static let manage: Permission = "timetable.manage"

    static var definitions: [PermissionDefinition] {
        [
            PermissionDefinition(read, summary: LocalizedText(ar: "عرض الجداول", en: "See timetables"), grants: [
                .developer: .school, .admin: .school, .teacher: .school, .staff: .school, .accountant: .school,
                .student: .ownRecord, .guardian: .linkedChildren,
            ]),
            PermissionDefinition(manage, summary: LocalizedText(ar: "إدارة الحصص والتقويم", en: "Manage slots and the calendar"), grants: .administrators),
        ]
    }
}
