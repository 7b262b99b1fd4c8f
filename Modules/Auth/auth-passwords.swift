import Core
import Foundation
import HummingbirdBcrypt

/// The rules every real account's password follows. (Only demo data uses the seed's "1234".)
public enum PasswordRules {
    public static let minimumLength = 8
    /// bcrypt reads at most 72 bytes: anything after them would be silently ignored.
    public static let maximumBytes = 72

    /// Passwords attackers try first; refusing them costs nothing.
    private static let common: Set<String> = [
        "password", "password1", "passw0rd", "12345678", "123456789", "1234567890", "qwerty123", "qwertyuiop",
        "11111111", "00000000", "iloveyou", "abc12345", "letmein1", "welcome1", "admin123", "hogwarts",
    ]

    /// Throws `weakPassword` naming the rule that failed.
    public static func check(_ password: String, email: String) throws {
        // bcrypt stops at a NUL byte, so "abc\0defghij" would really be "abc".
        guard TextInput.problem(in: password, maxLength: Int.max) == nil else { throw AuthError.weakPassword("control") }
        guard password.utf8.count <= maximumBytes else { throw AuthError.weakPassword("too-long") }
        guard password.count >= minimumLength else { throw AuthError.weakPassword("too-short") }
        guard Set(password).count > 2 else { throw AuthError.weakPassword("repetitive") }
        guard !common.contains(password.lowercased()) else { throw AuthError.weakPassword("common") }
        let localPart = UserAccounts.normalize(email).split(separator: "@").first.map(String.init) ?? ""
        guard localPart.count < 4 || !password.lowercased().contains(localPart) else { throw AuthError.weakPassword("contains-email") }
    }
}

/// bcrypt hashing, compatible with the `$2a$`/`$2b$`/`$2y$` hashes the Hogwarts web app exports.
public enum PasswordHasher {
    /// Sees every verification and its cost, for tests that prove each sign-in refusal does the
    /// same work without timing anything. Nil (nothing recorded) outside such a test.
    @TaskLocal public static var log: PasswordVerificationLog?

    /// Runs where each new hash is made, for a test that does other work there (nil outside one).
    @TaskLocal public static var whileHashing: (@Sendable () -> Void)?

    public static func hash(_ password: String, cost: Int) -> String {
        whileHashing?()
        return Bcrypt.hash(password, cost: UInt8(clamping: cost))
    }

    public static func verify(_ password: String, against hash: String) -> Bool {
        log?.record(cost: cost(of: hash))
        // `$2y$` (PHP) is the same algorithm as `$2b$`; the C library knows only the latter.
        let normalized = hash.hasPrefix("$2y$") ? "$2b$" + hash.dropFirst(4) : hash
        return Bcrypt.verify(password, hash: normalized)
    }

    /// The cost written in a bcrypt hash (`$2b$12$...` gives 12), nil when the text is not one.
    public static func cost(of hash: String) -> Int? {
        let parts = hash.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0].isEmpty, ["2a", "2b", "2y"].contains(parts[1]), parts[2].count == 2, let cost = Int(parts[2]) else {
            return nil
        }
        return cost
    }

    /// A well-formed hash of the given cost to verify against when there is no real one (an
    /// unknown email), so the refusal costs the same as a wrong password. Built from text, not
    /// computed: making a hash costs as much as checking one, which is the leak this avoids.
    /// The salt and digest are the OpenBSD test vector for "U*U" at cost 5; at any other cost
    /// they match no password.
    public static func decoy(cost: Int) -> String {
        let cost = min(max(cost, 4), 31)
        return "$2b$" + (cost < 10 ? "0" : "") + String(cost) + "$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"
    }
}

/// The costs of the verifications made while it is installed (`PasswordHasher.$log.withValue`).
public final class PasswordVerificationLog: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [Int?] = []
    /// Runs during each verification, where the bcrypt work would be (a test does other work there).
    private let during: @Sendable () -> Void

    public init(during: @escaping @Sendable () -> Void = {}) {
        self.during = during
    }

    /// One entry per verification: the hash's cost, nil for text that is not a bcrypt hash.
    public var costs: [Int?] { lock.withLock { recorded } }

    func record(cost: Int?) {
        lock.withLock { recorded.append(cost) }
        during()
    }
}
