import Auth
@testable import Core
import Foundation
import HogwartsTestSupport
import NIOPosix
import Synchronization
import Testing

/// Which threads the API runs an action on (`Core/HTTP/core-action-lanes.swift`): bcrypt's
/// quarter second of CPU must not take the threads reads or registers run on.
@Suite("Auth over HTTP: password work has a lane of its own")
struct AuthActionLanesTests {
    @Test("sign-in and new passwords run on the password lane, other writes on the writers' lane, reads on the kernel threads")
    func lanes() {
        let kernelThreads = NIOThreadPool(numberOfThreads: 1)
        #expect(ActionLanes.pool(ActionLanes.lane(for: SignIn.self), reads: kernelThreads) === ActionLanes.passwords)
        #expect(ActionLanes.pool(ActionLanes.lane(for: CreateUser.self), reads: kernelThreads) === ActionLanes.passwords)
        #expect(ActionLanes.pool(ActionLanes.lane(for: ResetPassword.self), reads: kernelThreads) === ActionLanes.passwords)
        #expect(ActionLanes.pool(ActionLanes.lane(for: UpdateProfile.self), reads: kernelThreads) === ActionLanes.writes)
        #expect(ActionLanes.pool(ActionLanes.lane(for: ShowProfile.self), reads: kernelThreads) === kernelThreads)
        #expect(ActionLanes.passwords !== ActionLanes.writes)
    }

    @Test("the password lane's threads run nicer than the writers' and the kernel's, so bcrypt yields the cores to requests")
    func passwordLaneYieldsTheCores() async throws {
        #if os(Linux)
        let kernelThreads = NIOThreadPool(numberOfThreads: 1)
        kernelThreads.start()
        let kernel = try #require(try await kernelThreads.runIfActive { ThreadPriority.niceness() })
        let writes = try #require(try await ActionLanes.writes.runIfActive { ThreadPriority.niceness() })
        // Each of the lane's threads: several tasks at once, each holding its thread a moment.
        let seen = try await withThrowingTaskGroup(of: Int32?.self) { group in
            for _ in 0..<8 {
                group.addTask { try await ActionLanes.passwords.runIfActive { usleep(20_000); return ThreadPriority.niceness() } }
            }
            return try await group.reduce(into: [Int32?]()) { $0.append($1) }
        }
        let passwords = Set(try seen.map { try #require($0) })
        #expect(writes == kernel)
        #expect(passwords == [min(19, kernel + ActionLanes.passwordsYield)])
        try await kernelThreads.shutdownGracefully()
        #endif
    }

    @Test("while POST /api/mobile/auth checks a slow password, the API's one kernel thread still answers a read")
    func apiSignInLeavesTheKernelThread() async throws {
        let fixture = try Self.fixtureWithSlowPassword()
        try fixture.addUser("reader@school.org")
        let kernelThreads = NIOThreadPool(numberOfThreads: 1)
        kernelThreads.start()
        try await fixture.harness.api(threadPool: kernelThreads) { api in
            let bearer = api.bearer(try await api.tokens("reader@school.org").access)
            let (answered, stillChecking, signIn) = try await Self.whileSigningIn({ try await api.signIn("slow@school.org", "Wr0ng-Horse").status }) {
                try await api.get("/api/mobile/profile", headers: bearer).status
            }
            #expect(answered == 200)
            #expect(stillChecking, "the read was answered while the password was still being checked")
            #expect(signIn == 401)
        }
        try await kernelThreads.shutdownGracefully()
    }

    @Test("while the console's sign-in form checks a slow password, the server's one kernel thread still answers a read")
    func consoleSignInLeavesTheKernelThread() async throws {
        let fixture = try Self.fixtureWithSlowPassword()
        let kernelThreads = NIOThreadPool(numberOfThreads: 1)
        kernelThreads.start()
        try await fixture.harness.console(threadPool: kernelThreads) { console in
            let (answered, stillChecking, signIn) = try await Self.whileSigningIn({ try await console.signIn("slow@school.org", "Wr0ng-Horse").status }) {
                try await console.get("/ready").status
            }
            #expect(answered == 200)
            #expect(stillChecking, "the read was answered while the password was still being checked")
            #expect(signIn == 401)
        }
        try await kernelThreads.shutdownGracefully()
    }

    /// An account whose password takes about two seconds to check (a wide window on a loaded CI machine: at cost 14 one read under the whole parallel suite took longer than the check): a bcrypt hash of cost 15, written
    /// as text (making one would cost as much as checking it).
    private static func fixtureWithSlowPassword() throws -> AuthFixture {
        let fixture = try AuthFixture()
        try fixture.addUser("slow@school.org")
        try fixture.harness.kernel.store.write { db in
            try db.execute(sql: "UPDATE auth_users SET password_hash = ? WHERE email = ?", arguments: [PasswordHasher.decoy(cost: 15), "slow@school.org"])
        }
        return fixture
    }

    /// Starts `signIn`, sends `read` once the sign-in has had time to reach its password check,
    /// and answers the read's status, whether the sign-in was still running when it came, and
    /// the sign-in's status.
    private static func whileSigningIn(_ signIn: @escaping @Sendable () async throws -> Int,
                                       read: () async throws -> Int) async throws -> (read: Int, stillChecking: Bool, signIn: Int) {
        let finished = Mutex(false)
        let signingIn = Task {
            let status = try await signIn()
            finished.withLock { $0 = true }
            return status
        }
        // Long enough for the sign-in to reach its password check; far shorter than the check.
        try await Task.sleep(for: .milliseconds(250))
        let read = try await read()
        let stillChecking = !finished.withLock { $0 }
        return (read, stillChecking, try await signingIn.value)
    }
}
