import Foundation

/// Where a long run is: the phase it is in and how many mutations the devices have queued, said
/// through the caller's `report` (the benchmark prints it at once; the CI test says nothing).
final class FuzzProgress: @unchecked Sendable {
    private let lock = NSLock()
    private let report: (@Sendable (String) -> Void)?
    private var queuedCount = 0
    private var syncCount = 0

    init(_ report: (@Sendable (String) -> Void)?) {
        self.report = report
    }

    var isOn: Bool { report != nil }

    func say(_ line: @autoclosure () -> String) {
        report?(line())
    }

    func queued() { lock.withLock { queuedCount += 1 } }
    func synced() { lock.withLock { syncCount += 1 } }

    /// Mutations queued and syncs started so far, by every device.
    var counts: (queued: Int, syncs: Int) { lock.withLock { (queuedCount, syncCount) } }

    /// Says the counts every `seconds` until cancelled, so a long round shows it is moving.
    func heartbeat(every seconds: UInt64, _ line: @escaping @Sendable (Int, Int) -> String) -> Task<Void, Never>? {
        guard isOn else { return nil }
        return Task { [self] in
            while (try? await Task.sleep(nanoseconds: seconds * 1_000_000_000)) != nil {
                let (queued, syncs) = counts
                say(line(queued, syncs))
            }
        }
    }
}
