import Foundation
import Synchronization

/// What the database says of each token family a server has been shown: who it was opened for,
/// with which role, while it is alive. A signature proves only that our key signed the claims;
/// this is what makes a token with a made-up `sid`, `sub` or `role` worthless. Each answer is
/// kept for `lifetime` seconds, so a phone's requests cost a dictionary look-up and the database
/// is asked about a family at most once per interval per server. Account changes revoke the
/// family in the same transaction (`revokeTokens(ofUser:)`), so every server stops the token
/// within this bound, and sooner through the revoked families read each second.
package final class LiveFamilies: Sendable {
    /// How long a server believes what it last read about a family.
    package static let lifetime: TimeInterval = 5
    /// Bounded: past the limit the memory starts again (each family is then read once more).
    static let capacity = 10_000

    struct Holder: Equatable {
        let userID: String
        let role: String?
    }

    private struct Entry {
        let holder: Holder?
        let readAt: Date
    }

    private let entries = Mutex([String: Entry]())

    /// The remembered answer for a family, if it is recent enough to believe.
    /// The outer optional is "not known"; the inner one is "no live family".
    func remembered(_ key: String, at now: Date) -> Holder?? {
        entries.withLock { entries in
            guard let entry = entries[key], now.timeIntervalSince(entry.readAt) < Self.lifetime, entry.readAt <= now else { return nil }
            return .some(entry.holder)
        }
    }

    func remember(_ key: String, _ holder: Holder?, at now: Date) {
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = Entry(holder: holder, readAt: now)
        }
    }

    /// This server ended the family itself: forget it at once.
    func forget(_ key: String) {
        _ = entries.withLock { $0.removeValue(forKey: key) }
    }
}
