import Attendance
@testable import Core
import HogwartsSQLite
import Dispatch
import Foundation
import HogwartsTestSupport
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
        let admin = fixture.admin
        let kernelThreads = NIOThreadPool(numberOfThreads: 1)
        kernelThreads.start()
        let commits = try #require((fixture.harness.kernel.store.engine as? SQLiteEngine)?.commits)
        let store = fixture.harness.kernel.store

        try await fixture.harness.api(threadPool: kernelThreads) { api in
            // Signed in first: issuing a token writes its family, which the held writer would stop.
            let bearer = ["Authorization": "Bearer " + (try await api.token(for: admin))]
            let heldWriter = HeldWriter(store)
            let writes = ["PRESENT", "LATE", "ABSENT", "SICK"].map { status in
                Task {
                    try await api.post("/api/mobile/attendance/bulk",
                                       json: ["section_id": sevenAID, "records": sevenA.map { ["student_id": $0, "status": status] }], headers: bearer).status
                }
            }
            // The four registers queue for the next commit. On the kernel's one thread only the
            // first could wait, and the read below would wait behind it until the writer was let go.
            // The deadline only stops a broken lane from hanging the suite: the whole suite runs
            // in parallel on two cores, where each await may wait behind others' work for seconds.
            let deadline = Date().addingTimeInterval(600)
            while commits.waitingWriters < 4, Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
            #expect(commits.waitingWriters == 4, "the four registers wait together behind the open transaction")
            #expect(try await api.get("/api/mobile/students?per_page=5", headers: bearer).status == 200)
            #expect(heldWriter.isHeld, "the read was answered while the writer was still held")
            #expect(try fixture.lines("7A").allSatisfy { $0.status == nil }, "nothing written while held")

            heldWriter.release()
            var written: [Int] = []
            for write in writes { written.append(try await write.value) }
            #expect(written == [200, 200, 200, 200])
        }
        try await kernelThreads.shutdownGracefully()
        let marked = try fixture.lines("7A").compactMap(\.status)
        #expect(marked.count == sevenA.count && Set(marked).count == 1, "every student marked, by one of the four registers as a whole")
    }
}

/// The database's one writer, held open by a transaction of the kernel's own (as a long write
/// would) until `release()`, or twenty minutes if a broken lane never lets the test get there
/// (a shorter guard let go of the writer under the whole parallel suite on CI before the read came).
private final class HeldWriter: Sendable {
    private let released = DispatchSemaphore(value: 0)
    private let held = Mutex(true)

    var isHeld: Bool { held.withLock { $0 } }

    init(_ store: KernelStore) {
        let entered = DispatchSemaphore(value: 0)
        DispatchQueue.global().async { [self] in
            _ = try? store.write { _ in
                entered.signal()
                _ = released.wait(timeout: .now() + 1_200)
                held.withLock { $0 = false }
            }
        }
        entered.wait()
    }

    func release() { released.signal() }
}
