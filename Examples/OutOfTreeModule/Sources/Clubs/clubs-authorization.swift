import Core

/// The permissions this module defines and the roles granted them by default.
public enum ClubsPermissions {
    public static let read: Permission = "clubs.read"
    public static let write: Permission = "clubs.write"

    static var definitions: [PermissionDefinition] {
        [
            PermissionDefinition(read, summary: LocalizedText(ar: "عرض عناصر Clubs", en: "View Clubs items"),
                                 grants: [.developer: .school, .admin: .school, .teacher: .school, .staff: .school]),
            PermissionDefinition(write, summary: LocalizedText(ar: "إضافة عناصر Clubs", en: "Add Clubs items"),
                                 grants: [.developer: .school, .admin: .school, .teacher: .school]),
        ]
    }
}
