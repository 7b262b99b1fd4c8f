import Attendance
@testable import Core
import Dispatch
import Foundation
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
    @Test("with the writer held open and one kernel thread, four registers wait together, a read is answered, then all four are written",
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
        let heldWriter = HeldWriter(fixture.harness.kernel.store)
        let application = Application(router: server.router(), logger: Logger(label: "lane-test") { _ in SwiftLogNoOpLogHandler() })

        try await application.test(.router) { client in
            let writes = ["PRESENT", "LATE", "ABSENT", "SICK"].map { status in
                Task { try await Self.register(sevenA, status, in: sevenAID, token: token, client) }
            }
            // The four registers queue for the next commit. On the kernel's one thread only the
            // first could wait, and the read below would wait behind it until the writer was let go.
            // (A generous deadline: the whole suite runs in parallel on two cores.)
            let deadline = Date().addingTimeInterval(60)
            while commits.waitingWriters < 4, Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
            #expect(commits.waitingWriters == 4, "the four registers wait together behind the open transaction")
            var bearer = HTTPFields()
            bearer[.authorization] = "Bearer " + token
            let read = try await client.execute(uri: "/api/mobile/students?per_page=5", method: .get, headers: bearer) { UInt($0.status.code) }
            #expect(read == 200)
            #expect(heldWriter.isHeld, "the read was answered while the writer was still held")
            #expect(try fixture.lines("7A").allSatisfy { $0.status == nil }, "nothing written while held")

            heldWriter.release()
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

/// The database's one writer, held open by a transaction of the kernel's own (as a long write
/// would) until `release()`, or two minutes if a broken lane never lets the test get there.
private final class HeldWriter: Sendable {
    private let released = DispatchSemaphore(value: 0)
    private let held = Mutex(true)

    var isHeld: Bool { held.withLock { $0 } }

    init(_ store: KernelStore) {
        let entered = DispatchSemaphore(value: 0)
        DispatchQueue.global().async { [self] in
            _ = try? store.write { _ in
                entered.signal()
                _ = released.wait(timeout: .now() + 120)
                held.withLock { $0 = false }
            }
        }
        entered.wait()
    }

    func release() { released.signal() }
}
