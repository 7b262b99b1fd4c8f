import Core
import Foundation
import HummingbirdBcrypt

/// The rules every real account's password follows. (Only demo data uses the seed's "1234".)
public enum PasswordRules {
    public static let minimumLength = 8

    /// Passwords attackers try first; refusing them costs nothing.
    private static let common: Set<String> = [
        "password", "password1", "passw0rd", "12345678", "123456789", "1234567890", "qwerty123", "qwertyuiop",
        "11111111", "00000000", "iloveyou", "abc12345", "letmein1", "welcome1", "admin123", "hogwarts",
    ]

    /// Throws `weakPassword` naming the rule that failed.
    public static func check(_ password: String, email: String) throws {
        guard password.count >= minimumLength else { throw AuthError.weakPassword("too-short") }
        guard Set(password).count > 2 else { throw AuthError.weakPassword("repetitive") }
        guard !common.contains(password.lowercased()) else { throw AuthError.weakPassword("common") }
        let localPart = UserAccounts.normalize(email).split(separator: "@").first.map(String.init) ?? ""
        guard localPart.count < 4 || !password.lowercased().contains(localPart) else { throw AuthError.weakPassword("contains-email") }
    }
}

/// bcrypt hashing, compatible with the `$2a$`/`$2b$`/`$2y$` hashes the Hogwarts web app exports.
public enum PasswordHasher {
    public static func hash(_ password: String, cost: Int) -> String {
        Bcrypt.hash(password, cost: UInt8(clamping: cost))
    }

    public static func verify(_ password: String, against hash: String) -> Bool {
        // `$2y$` (PHP) is the same algorithm as `$2b$`; the C library knows only the latter.
        let normalized = hash.hasPrefix("$2y$") ? "$2b$" + hash.dropFirst(4) : hash
        return Bcrypt.verify(password, hash: normalized)
    }

    /// Checked against when the email is unknown, so a wrong email takes as long as a wrong password.
    static let decoy = Bcrypt.hash("decoy password", cost: 10)
}
