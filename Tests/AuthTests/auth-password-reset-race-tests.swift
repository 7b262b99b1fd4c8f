import Auth
@testable import Core
import Dispatch
import Foundation
import HogwartsTestSupport
import Synchronization
import Testing

/// Two asks for one account's code whose writes overlap: a double tap, or two servers. Found in
/// CI on PostgreSQL, where a delete-then-insert of the account's code row let the later ask
/// break the row's key, and its mail was lost without a word.
@Suite("Password reset: asks at the same moment")
struct PasswordResetRaceTests {
    @Test("two asks for one account, the first held mid-write until the second has written too: both mail a code, neither fails, and the later code works")
    func overlappingAsks() async throws {
        let fixture = try ResetFixture()
        try fixture.addUser("amina@school.org")
        let (kernel, school) = (fixture.harness.kernel, fixture.harness.school.id)
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        // Holds back every audit record (PostgreSQL), or every writer (SQLite, whose writers take
        // turns anyway): the first ask waits there with its code row written, not committed, and
        // the second reaches that row while the first still holds it.
        Thread.detachNewThread {
            try? kernel.store.write { db in
                if TestDatabase.isPostgres { try db.execute(sql: "LOCK TABLE kernel_audit IN SHARE MODE") }
                holding.signal()
                release.wait()
            }
        }
        holding.wait()
        let failures = Mutex<[String]>([])
        let asked = DispatchGroup()
        for _ in 0..<2 {
            asked.enter()
            Thread.detachNewThread {
                defer { asked.leave() }
                do {
                    _ = try kernel.run(RequestPasswordReset.self, .init(email: "amina@school.org"), as: .anonymous, in: school)
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        // Each ask hashes its code (about 60 ms) before it writes; a second is ample for both to be waiting.
        try await Task.sleep(for: .seconds(1))
        release.signal()
        asked.wait()

        #expect(failures.withLock { $0 } == [])
        let mails = try await fixture.mail.waitFor(2)
        #expect(mails.count == 2)
        _ = try kernel.run(RequestPasswordReset.self, .init(email: "amina@school.org"), as: .anonymous, in: school)
        let latest = try #require(try await fixture.mail.waitFor(3).last.flatMap(MailCatcher.code(in:)))
        #expect(try kernel.run(VerifyResetCode.self, .init(email: "amina@school.org", code: latest), as: .anonymous, in: school),
                "the account's one code is the latest")
    }
}
