import Auth
@testable import Core
import Dispatch
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

    @Test("while POST /api/mobile/auth waits for the password lane, the API's one kernel thread still answers a read")
    func apiSignInLeavesTheKernelThread() async throws {
        let fixture = try AuthFixture()
        try fixture.addUser("reader@school.org")
        try fixture.addUser("signing-in@school.org")
        let kernelThreads = NIOThreadPool(numberOfThreads: 1)
        kernelThreads.start()
        try await fixture.harness.api(threadPool: kernelThreads) { api in
            let bearer = api.bearer(try await api.tokens("reader@school.org").access)
            let (answered, stillSigningIn, laneHeld, signIn) = try await Self.whileThePasswordLaneIsHeld({ try await api.signIn("signing-in@school.org", "Wr0ng-Horse").status }) {
                try await api.get("/api/mobile/profile", headers: bearer).status
            }
            #expect(answered == 200)
            #expect(stillSigningIn, "the read was answered while the sign-in waited for its password check")
            #expect(laneHeld, "the read was answered while every password thread was busy")
            #expect(signIn == 401)
        }
        try await kernelThreads.shutdownGracefully()
    }

    @Test("while the console's sign-in form waits for the password lane, the server's one kernel thread still answers a read")
    func consoleSignInLeavesTheKernelThread() async throws {
        let fixture = try AuthFixture()
        try fixture.addUser("signing-in@school.org")
        let kernelThreads = NIOThreadPool(numberOfThreads: 1)
        kernelThreads.start()
        try await fixture.harness.console(threadPool: kernelThreads) { console in
            let (answered, stillSigningIn, laneHeld, signIn) = try await Self.whileThePasswordLaneIsHeld({
                try await console.signIn("signing-in@school.org", "Wr0ng-Horse").status
            }) {
                try await console.get("/ready").status
            }
            #expect(answered == 200)
            #expect(stillSigningIn, "the read was answered while the sign-in waited for its password check")
            #expect(laneHeld, "the read was answered while every password thread was busy")
            #expect(signIn == 401)
        }
        try await kernelThreads.shutdownGracefully()
    }

    /// Holds every thread of the password lane (as a burst of sign-ins would), starts `signIn`,
    /// sends `read` once the sign-in has had time to reach the server, then lets the lane go.
    /// Answers the read's status, whether the sign-in was still waiting and the lane still held
    /// when the read was answered, and the sign-in's status. Gates, not clocks: on a loaded CI
    /// machine a read may take seconds, and a sign-in on the lane still cannot finish before it.
    /// (Had the sign-in run on the kernel's one thread, it would have finished first.)
    private static func whileThePasswordLaneIsHeld(_ signIn: @escaping @Sendable () async throws -> Int, read: () async throws -> Int)
        async throws -> (read: Int, stillSigningIn: Bool, laneHeld: Bool, signIn: Int) {
        let lane = try await HeldPasswordLane()
        // Let go even if the read throws: other tests' sign-ins wait on this lane meanwhile.
        defer { lane.release() }
        let finished = Mutex(false)
        let signingIn = Task {
            let status = try await signIn()
            finished.withLock { $0 = true }
            return status
        }
        try await Task.sleep(for: .milliseconds(250))
        let read = try await read()
        let stillSigningIn = !finished.withLock { $0 }
        let laneHeld = lane.isHeld
        lane.release()
        return (read, stillSigningIn, laneHeld, try await signingIn.value)
    }
}

/// Every thread of the password lane held by a job of the test's until `release()`, which the
/// test's `defer` always reaches. No timeout: on a loaded CI machine the read once took longer
/// than the ten minutes a timeout allowed, and the lane let go before it. Other tests' sign-ins
/// wait meanwhile.
private final class HeldPasswordLane: Sendable {
    private let released = DispatchSemaphore(value: 0)
    private let entered = Mutex(0)
    private let held = Mutex(true)

    var isHeld: Bool { held.withLock { $0 } }

    /// Returns once every thread is held (another test's sign-in may have had one first).
    init() async throws {
        for _ in 0..<ActionLanes.passwordThreads {
            Task.detached { [self] in
                try await ActionLanes.passwords.runIfActive { [self] in
                    entered.withLock { $0 += 1 }
                    released.wait()
                    held.withLock { $0 = false }
                }
            }
        }
        while entered.withLock({ $0 }) < ActionLanes.passwordThreads { try await Task.sleep(for: .milliseconds(10)) }
    }

    /// Lets every job go; a second call only signals a semaphore no job waits on any more.
    func release() {
        for _ in 0..<ActionLanes.passwordThreads { released.signal() }
    }
}
