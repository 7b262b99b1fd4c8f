import Foundation
import NIOPosix
import Synchronization

/// A sliding-window limit per client address: sign-in attempts beyond it get 429 with
/// `Retry-After`, before any password is checked. Accounts have their own lockout (Auth); this
/// stops one address from trying many accounts.
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
    let clock: @Sendable () -> Date
    private let attempts = Mutex<[String: [Date]]>([:])

    public init(limit: Limit, clock: @escaping @Sendable () -> Date) {
        self.limit = limit
        self.clock = clock
    }

    /// Records an attempt and returns nil, or the whole seconds to wait when over the limit.
    public func admit(_ address: String) -> Int? {
        let now = clock()
        return attempts.withLock { table in
            if table.count > 10_000 { table = table.filter { $0.value.last.map { now.timeIntervalSince($0) < limit.window } ?? false } }
            var recent = (table[address] ?? []).filter { now.timeIntervalSince($0) < limit.window }
            defer { table[address] = recent }
            guard recent.count < limit.attempts else {
                let oldest = recent.first ?? now
                return max(1, Int((limit.window - now.timeIntervalSince(oldest)).rounded(.up)))
            }
            recent.append(now)
            return nil
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
