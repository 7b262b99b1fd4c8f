import Core

/// The permissions this module defines and the roles granted them by default.
public enum ReadingPermissions {
    public static let read: Permission = "reading.read"
    public static let write: Permission = "reading.write"

    static var definitions: [PermissionDefinition] {
        [
            PermissionDefinition(read, summary: LocalizedText(ar: "عرض عناصر Reading", en: "View Reading items"),
                                 grants: [.developer: .school, .admin: .school, .teacher: .school, .staff: .school]),
            PermissionDefinition(write, summary: LocalizedText(ar: "إضافة عناصر Reading", en: "Add Reading items"),
                                 grants: [.developer: .school, .admin: .school, .teacher: .school]),
        ]
    }
}
