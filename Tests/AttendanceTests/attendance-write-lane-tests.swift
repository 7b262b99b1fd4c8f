import Attendance
@testable import Core
import Dispatch
import Foundation
import GRDB
import HogwartsTestSupport
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOPosix
import Synchronization
import Testing

/// Writes over HTTP run on their own threads (`ActionLanes.writes`): while SQLite's writer is busy,
/// writers wait there together for the next commit, and reads keep the kernel's threads.
@Suite("Attendance over HTTP: writes wait on their own lane, reads are still answered")
struct AttendanceWriteLaneTests {
    @Test("with the database locked by another process and one kernel thread, four registers wait together, a read is answered, then all four are written",
          .enabled(if: !TestDatabase.isPostgres, "SQLite's single writer"))
    func writesWaitApartFromReads() async throws {
        let fixture = try RoutesFixture()
        let sevenA = try fixture.lines("7A").map(\.studentID)
        let sevenAID = try fixture.classID("7A")
        let kernelThreads = NIOThreadPool(numberOfThreads: 1)
        kernelThreads.start()
        let server = APIServer(kernel: fixture.harness.kernel, threadPool: kernelThreads)
        let token = try await server.tokens.issue(for: fixture.admin, email: nil).accessToken
        let commits = try #require((fixture.harness.kernel.store.engine as? SQLiteEngine)?.commits)
        let lock = try OtherProcessLock(path: fixture.harness.databasePath)
        let application = Application(router: server.router(), logger: Logger(label: "lane-test") { _ in SwiftLogNoOpLogHandler() })

        try await application.test(.router) { client in
            let writes = ["PRESENT", "LATE", "ABSENT", "SICK"].map { status in
                Task { try await Self.register(sevenA, status, in: sevenAID, token: token, client) }
            }
            // One register waits for the lock inside the writer and three queue for its commit.
            // On the kernel's one thread only the first could wait, and the read below would
            // wait behind it until the lock was let go.
            let deadline = Date().addingTimeInterval(5)
            while commits.waitingWriters < 3, Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
            #expect(commits.waitingWriters == 3, "three registers wait together behind the first")
            var bearer = HTTPFields()
            bearer[.authorization] = "Bearer " + token
            let read = try await client.execute(uri: "/api/mobile/students?per_page=5", method: .get, headers: bearer) { UInt($0.status.code) }
            #expect(read == 200)
            #expect(lock.isHeld, "the read was answered while the database was still locked")
            #expect(try fixture.lines("7A").allSatisfy { $0.status == nil }, "nothing written while locked")

            lock.release()
            var written: [UInt] = []
            for write in writes { written.append(try await write.value) }
            #expect(written == [200, 200, 200, 200])
        }
        try await kernelThreads.shutdownGracefully()
        let marked = try fixture.lines("7A").compactMap(\.status)
        #expect(marked.count == sevenA.count && Set(marked).count == 1, "every student marked, by one of the four registers as a whole")
    }

    /// `POST /api/mobile/attendance/bulk` marking every student with `status`; its HTTP status.
    private static func register(_ students: [String], _ status: String, in classID: String, token: String,
                                 _ client: any TestClientProtocol) async throws -> UInt {
        let records: [[String: String]] = students.map { ["student_id": $0, "status": status] }
        let body = try JSONSerialization.data(withJSONObject: ["section_id": classID, "records": records] as [String: Any])
        var headers = HTTPFields()
        headers[.authorization] = "Bearer " + token
        headers[.contentType] = "application/json"
        return try await client.execute(uri: "/api/mobile/attendance/bulk", method: .post, headers: headers, body: ByteBuffer(bytes: body)) {
            UInt($0.status.code)
        }
    }
}

/// A write lock on the database file taken by a connection of its own (as another `hogwarts`
/// process would), held until `release()` or 8 seconds (under the platform's 10-second wait).
private final class OtherProcessLock: Sendable {
    private let released = DispatchSemaphore(value: 0)
    private let held = Mutex(true)

    var isHeld: Bool { held.withLock { $0 } }

    init(path: String) throws {
        let taken = DispatchSemaphore(value: 0)
        let queue = try DatabaseQueue(path: path)
        DispatchQueue.global().async { [self] in
            try? queue.inDatabase { db in
                try db.execute(sql: "BEGIN IMMEDIATE")
                taken.signal()
                _ = released.wait(timeout: .now() + 8)
                held.withLock { $0 = false }
                try db.execute(sql: "COMMIT")
            }
        }
        taken.wait()
    }

    func release() { released.signal() }
}
