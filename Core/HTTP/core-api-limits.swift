import Foundation
import NIOPosix
import Synchronization
import HogwartsBase
import HogwartsKernel

/// A limit per client address, kept in the database so every server on it counts the same
/// attempts: sign-in attempts beyond it get 429 with `Retry-After`, before any password is
/// checked. Accounts have their own lockout (Auth); this stops one address from trying many accounts.
public final class RateLimiter: Sendable {
    public struct Limit: Sendable {
        public let attempts: Int
        public let window: TimeInterval

        public init(attempts: Int, window: TimeInterval) {
            self.attempts = attempts
            self.window = window
        }

        /// Ten sign-ins a minute from one address.
        public static let signIn = Limit(attempts: 10, window: 60)
    }

    let limit: Limit
    let kernel: Kernel
    let threadPool: NIOThreadPool
    /// Which limit the keys belong to: two limits never share a count.
    let name: String

    public init(_ name: String, limit: Limit, kernel: Kernel, threadPool: NIOThreadPool) {
        self.name = name
        self.limit = limit
        self.kernel = kernel
        self.threadPool = threadPool
    }

    /// Records an attempt and returns nil, or the whole seconds to wait when over the limit.
    public func admit(_ address: String) async throws -> Int? {
        let (kernel, key, limit) = (kernel, "\(name)|\(address)", limit)
        return try await threadPool.runIfActive { try kernel.admit(key, limit: limit) }
    }
}

extension Kernel {
    /// The generic cell rate algorithm, one row per key and one statement: `attempts` requests
    /// may come at once, then one every `window / attempts`, so no window of that length ever
    /// admits more than `attempts`. The upsert's WHERE admits or refuses under the row's lock, so
    /// servers counting the same key at once still count each attempt once.
    /// Returns nil when admitted, else the whole seconds until the next attempt would be.
    public func admit(_ key: String, limit: RateLimiter.Limit) throws -> Int? {
        let now = Int64((now().timeIntervalSince1970 * 1000).rounded())
        let spacing = max(1, Int64((limit.window * 1000 / Double(max(1, limit.attempts))).rounded()))
        let latest = now + Int64((limit.window * 1000).rounded()) - spacing
        return try store.write { db -> Int? in
            let admitted = try db.fetchValue(Int64.self, sql: """
                INSERT INTO kernel_rate_limits (key, due_at) VALUES (?, ?)
                ON CONFLICT (key) DO UPDATE SET due_at = (CASE WHEN kernel_rate_limits.due_at > ? THEN kernel_rate_limits.due_at ELSE ? END) + ?
                WHERE (CASE WHEN kernel_rate_limits.due_at > ? THEN kernel_rate_limits.due_at ELSE ? END) <= ?
                RETURNING due_at
                """, arguments: [key, now + spacing, now, now, spacing, now, now, latest])
            if admitted != nil {
                // Rows whose every attempt has aged out say nothing any more.
                try db.execute(sql: "DELETE FROM kernel_rate_limits WHERE due_at < ?", arguments: [now])
                return nil
            }
            let due = try db.fetchValue(Int64.self, sql: "SELECT due_at FROM kernel_rate_limits WHERE key = ?", arguments: [key]) ?? now
            return max(1, Int(((Double(due - latest)) / 1000).rounded(.up)))
        }
    }
}

/// Which modules are on for a school, read at most once a second: switching a module off
/// takes effect for the API within a second, without a restart and without a read per request.
final class ModuleSwitchCache: Sendable {
    static let maximumAge: TimeInterval = 1
    let kernel: Kernel
    let threadPool: NIOThreadPool
    private let entries = Mutex<[SchoolID: (enabled: Set<ModuleID>, readAt: Date)]>([:])

    init(kernel: Kernel, threadPool: NIOThreadPool) {
        self.kernel = kernel
        self.threadPool = threadPool
    }

    func isEnabled(_ module: ModuleID, in school: SchoolID) async throws -> Bool {
        let now = Date()
        if let entry = entries.withLock({ $0[school] }), now.timeIntervalSince(entry.readAt) < Self.maximumAge {
            return entry.enabled.contains(module)
        }
        let kernel = kernel
        let enabled = try await threadPool.runIfActive { try kernel.enabledModules(for: school) }
        entries.withLock { $0[school] = (enabled, now) }
        return enabled.contains(module)
    }
}
