import Core

/// The seed's test accounts. Their password "1234" breaks the rules on purpose and exists only
/// in demo data, written straight as a hash: no real account can be given it.
public enum AuthDemo {
    public static let password = "1234"
    /// One hash for every demo account keeps `hogwarts demo` fast; cost 10 is the floor of the setting.
    public static let passwordHash = PasswordHasher.hash(password, cost: 10)

    static func seed(_ context: ActionContext, size: DemoSize) throws {
        let accounts: [(String, String, Role)] = switch size {
        case .full: [
            ("dev@databayt.org", "Developer", .developer),
            ("admin@databayt.org", "مدير المدرسة", .admin),
            ("accountant@databayt.org", "المحاسب", .accountant),
            ("staff@databayt.org", "الموظف", .staff),
        ]
        case .small: [
            ("admin@nile.databayt.org", "مدير مدرسة النيل", .admin),
        ]
        }
        for (email, name, role) in accounts {
            try UserAccounts.insert(id: context.newID(), email: email, displayName: name, role: role, passwordHash: passwordHash, in: context)
        }
    }
}
