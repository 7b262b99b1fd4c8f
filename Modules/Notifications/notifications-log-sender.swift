import Foundation

/// Appends each delivery as a JSON line to a file: a record of what left, and the channel that
/// exercises the outbox where no mail agent is set up.
struct LogFileSender: NotificationSender {
    let path: String

    func send(_ delivery: OutboxDelivery) throws -> SendOutcome {
        let line = Array((delivery.payload + "\n").utf8)
        // Message text about children: a new log is its owner's alone (0600) from the start.
        // O_APPEND keeps lines of several servers writing at once whole.
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw SendError(detail: "cannot open \(path) for writing: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        let written = line.withUnsafeBytes { bytes in bytes.baseAddress.map { write(descriptor, $0, bytes.count) } ?? 0 }
        guard written == line.count else { throw SendError(detail: "cannot write \(path): \(String(cString: strerror(errno)))") }
        return .delivered
    }

    struct SendError: Error, CustomStringConvertible {
        let detail: String
        var description: String { detail }
    }
}
