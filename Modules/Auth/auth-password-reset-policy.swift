import Core
import Foundation

/// The rules of a password reset by emailed code: 6 digits, 10 minutes, one use, 5 wrong tries,
/// kept only as a bcrypt hash; and the limits that stop anyone from flooding a mailbox or
/// guessing, counted in the database so every server on it counts the same.
public enum PasswordResetPolicy {
    public static let codeLength = 6
    public static let codeLifetime: TimeInterval = 10 * 60
    /// Wrong codes before a code stops working (a new one must be asked for).
    public static let maximumAttempts = 5
    /// bcrypt's cost for codes: a code read from a copy of the database takes hours to recover
    /// (a million guesses), far beyond its 10 minutes; checking one costs about 60 ms.
    static let codeHashCost = 10
    /// Reset, verify and new-password requests from one client address (the contract's 5 a minute).
    public static let perAddress = RateLimiter.Limit(attempts: 5, window: 60)
    /// Codes mailed to one address: beyond this the answer is the same and no mail is sent.
    public static let perEmail = RateLimiter.Limit(attempts: 3, window: 15 * 60)

    /// A uniformly random code of `codeLength` digits, leading zeros kept.
    static func newCode() -> String {
        var generator = SystemRandomNumberGenerator()
        let value = UInt32.random(in: 0..<1_000_000, using: &generator)
        let digits = String(value)
        return String(repeating: "0", count: codeLength - digits.count) + digits
    }

    /// Whether a text is a code at all: exactly 6 ASCII digits.
    public static func isWellFormed(_ code: String) -> Bool {
        code.utf8.count == codeLength && code.utf8.allSatisfy { (48...57).contains($0) }
    }

    /// The rate-limit key of one email address: its digest, so the table holds no addresses.
    static func emailKey(_ email: String) -> String {
        "password-reset-email|" + Digest.sha256Hex(Data(UserAccounts.normalize(email).utf8))
    }

    static func addressKey(_ address: String) -> String {
        "password-reset|" + address
    }
}
