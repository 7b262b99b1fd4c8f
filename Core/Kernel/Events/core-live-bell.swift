import Synchronization

/// Rung after this process commits a live event, so the node's streams hear it at once instead
/// of at the next look; rings while nobody waits are kept as one.
public final class LiveBell: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    package func ring() {
        continuation.yield()
    }

    /// Waits for a ring, or `interval` at most. One waiter at a time (the node's live hub).
    package func wait(atMost interval: Duration) async {
        let continuation = continuation
        let timer = Task {
            try? await Task.sleep(for: interval)
            continuation.yield()
        }
        var rings = stream.makeAsyncIterator()
        _ = await rings.next()
        timer.cancel()
    }
}
