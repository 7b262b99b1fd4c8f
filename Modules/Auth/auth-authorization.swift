import Core

/// Who may do what with accounts. Everyone may try to sign in (anonymous callers hold the
/// USER role's grants); only administrators manage users.
public enum AuthPermissions {
    public static let signIn: Permission = "auth.sign-in"
    public static let readUsers: Permission = "auth.users.read"
    public static let manageUsers: Permission = "auth.users.manage"
    /// Reading and editing one's own profile (name, biography, language): every role, own account only.
    public static let profile: Permission = "auth.profile"

    static var definitions: [PermissionDefinition] {
        let everyone = Dictionary(uniqueKeysWithValues: Role.allCases.map { ($0, AccessScope.ownRecord) })
        return [
            PermissionDefinition(signIn, summary: LocalizedText(ar: "تسجيل الدخول والخروج", en: "Sign in and out"), grants: everyone),
            PermissionDefinition(readUsers, summary: LocalizedText(ar: "عرض مستخدمي المدرسة", en: "See the school's users"), grants: .administrators),
            PermissionDefinition(profile, summary: LocalizedText(ar: "عرض الملف الشخصي وتعديله", en: "See and edit one's own profile"), grants: everyone),
            PermissionDefinition(manageUsers, summary: LocalizedText(ar: "إدارة مستخدمي المدرسة", en: "Manage the school's users"), grants: .administrators),
        ]
    }
}
