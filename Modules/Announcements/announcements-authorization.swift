import Core

/// Who reads announcements and who posts them. Reading is for everyone in the school, each
/// seeing what is addressed to them (the whole school, their role, their class or year level);
/// administrators see every announcement. Administrators post to anyone; a teacher posts only
/// to a class they teach.
public enum AnnouncementsPermissions {
    public static let read: Permission = "announcements.read"
    public static let post: Permission = "announcements.post"

    static var definitions: [PermissionDefinition] {
        [
            PermissionDefinition(read, summary: LocalizedText(ar: "قراءة إعلانات المدرسة الموجهة إليك", en: "Read the school's announcements addressed to you"),
                                 grants: [.developer: .school, .admin: .school, .teacher: .ownClasses, .staff: .ownRecord,
                                          .accountant: .ownRecord, .guardian: .linkedChildren, .student: .ownRecord]),
            PermissionDefinition(post, summary: LocalizedText(ar: "نشر إعلان أو سحبه", en: "Post or withdraw an announcement"),
                                 grants: [.developer: .school, .admin: .school, .teacher: .ownClasses]),
        ]
    }
}
