import Auth
@testable import Core
import NIOPosix
import Testing

/// Which threads the API runs an action on (`Core/HTTP/core-action-lanes.swift`): bcrypt's
/// quarter second of CPU must not take the threads reads or registers run on.
@Suite("Auth over HTTP: password work has a lane of its own")
struct AuthActionLanesTests {
    @Test("sign-in and new passwords run on the password lane, other writes on the writers' lane, reads on the kernel threads")
    func lanes() {
        let kernelThreads = NIOThreadPool(numberOfThreads: 1)
        #expect(ActionLanes.pool(for: SignIn.self, reads: kernelThreads) === ActionLanes.preparing)
        #expect(ActionLanes.pool(for: CreateUser.self, reads: kernelThreads) === ActionLanes.preparing)
        #expect(ActionLanes.pool(for: ResetPassword.self, reads: kernelThreads) === ActionLanes.preparing)
        #expect(ActionLanes.pool(for: UpdateProfile.self, reads: kernelThreads) === ActionLanes.writes)
        #expect(ActionLanes.pool(for: ShowProfile.self, reads: kernelThreads) === kernelThreads)
        #expect(ActionLanes.preparing !== ActionLanes.writes)
    }
}
