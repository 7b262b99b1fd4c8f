import Synchronization

/// A bounded, thread-safe memo of read results, each kept with the data version it was read at.
///
/// The owning module keeps a version per school that changes in the same transaction as any change
/// to the data a read depends on (a trigger on its tables catches every write path). A read asks for
/// the version inside its own read transaction and passes it here: a hit under the same version is
/// exactly what the query would answer from that snapshot, so nothing stale is ever served. With no
/// version (nothing written yet) the read runs and nothing is kept.
public final class ReadCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry {
        let version: String
        let value: Value
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        /// Keys oldest first, to drop the oldest when full.
        var order: [Key] = []
    }

    private let capacity: Int
    private let state = Mutex(State())

    public init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The value kept for `key` at `version`, else `read()`'s, kept for the next caller. The read runs
    /// outside the lock, so two first callers may both read; both get the same answer.
    public func value(for key: Key, at version: String?, read: () throws -> Value) rethrows -> Value {
        guard let version else { return try read() }
        if let hit = state.withLock({ $0.entries[key] }), hit.version == version { return hit.value }
        let value = try read()
        state.withLock { state in
            if state.entries.updateValue(Entry(version: version, value: value), forKey: key) == nil {
                state.order.append(key)
                if state.order.count > capacity {
                    state.entries[state.order.removeFirst()] = nil
                }
            }
        }
        return value
    }

    /// How many results are kept (for tests).
    public var count: Int { state.withLock { $0.entries.count } }
}
