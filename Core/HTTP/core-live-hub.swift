import Foundation
import NIOPosix
import Synchronization
import HogwartsBase
import HogwartsKernel
import HogwartsPostgreSQL

/// The node's one reader of live events. However many streams are open, it reads the database
/// once per look, for the schools that have a stream open, and hands each row to the streams of
/// the person it is for. It looks when a live event is committed (the kernel's bell: rung by this
/// node's own commits and, on PostgreSQL, by other servers' through LISTEN/NOTIFY) and every
/// `interval` in any case, the fallback for a listener that is down and for SQLite, where
/// commands beside the server have no way to ring it.
package final class LiveHub: Sendable {
    /// `HOGWARTS_LIVE_INTERVAL`: seconds between looks for other nodes' events (0.05 to 60).
    package static func interval(_ variables: [String: String]) -> Duration {
        guard let seconds = variables["HOGWARTS_LIVE_INTERVAL"].flatMap(Self.seconds) else { return .milliseconds(500) }
        return .milliseconds(Int(seconds * 1000))
    }

    /// A value of `HOGWARTS_LIVE_INTERVAL`, nil when it is not a number of seconds in range.
    package static func seconds(_ text: String) -> Double? {
        guard let seconds = Double(text), (0.05...60).contains(seconds) else { return nil }
        return seconds
    }

    /// The `Last-Event-ID` a reconnecting client sends: nil when absent or empty.
    package static func eventID(_ header: String?) throws -> Int64? {
        guard let header, !header.isEmpty else { return nil }
        guard let value = StrictNumber.integer(header), value >= 0 else {
            throw APIError.invalidField("Last-Event-ID", reason: "expected the id of an event this stream sent")
        }
        return Int64(value)
    }

    /// A comment every so often: proxies keep the connection, and a client that left is found out.
    static let heartbeat: TimeInterval = 15
    /// Rows one look reads per school; more wait for the next look, which comes at once.
    static let batch = 500

    private struct Listener {
        let school: SchoolID
        let user: String
        let language: Language
        let continuation: AsyncStream<Data>.Continuation
        /// The last number written to this stream; anything at or below it is a repeat.
        var lastSent: Int64 = 0
        /// Rows that came while the stream was still catching up.
        var held: [LiveEventRow]? = []

        mutating func send(_ row: LiveEventRow) {
            guard row.user == user, row.seq > lastSent else { return }
            if held != nil {
                held?.append(row)
            } else {
                continuation.yield(row.message(in: language))
                lastSent = row.seq
            }
        }
    }

    private struct State {
        var listeners: [UUID: Listener] = [:]
        /// The last number read, per school with a stream open here.
        var cursors: [SchoolID: Int64] = [:]
        var looking = false
    }

    private let state = Mutex(State())
    let kernel: Kernel
    let threadPool: NIOThreadPool
    let interval: Duration

    /// On PostgreSQL, other servers' commits ring this server's bell through LISTEN/NOTIFY.
    private let listener: PostgresListener?

    init(kernel: Kernel, threadPool: NIOThreadPool, interval: Duration) {
        self.kernel = kernel
        self.threadPool = threadPool
        self.interval = interval
        let bell = kernel.liveBell
        listener = (kernel.store.engine as? PostgresEngine).map { engine in
            PostgresListener(conninfo: engine.pool.conninfo, timeouts: engine.pool.timeouts) { bell.ring() }
        }
    }

    deinit {
        listener?.stop()
    }

    /// How many streams are open on this node (for the metrics and tests).
    var openStreams: Int { state.withLock { $0.listeners.count } }

    /// Opens `user`'s stream: first what they missed after `lastEventID` (nothing when nil), then
    /// each new event once, in order, until `until` (when the credential that opened it expires):
    /// then it ends, and a client comes back with a fresh credential and its last event id, so an
    /// expired or revoked sign-in stops hearing without losing anything while it was valid.
    package func open(school: SchoolID, user: String, language: Language, lastEventID: Int64?, until: Date) async throws -> APIStreamBody {
        let id = UUID()
        let (chunks, continuation) = AsyncStream.makeStream(of: Data.self, bufferingPolicy: .bufferingNewest(1000))
        let listener = Listener(school: school, user: user, language: language, continuation: continuation)
        let startLooking = state.withLock { state in
            state.listeners[id] = listener
            defer { state.looking = true }
            return !state.looking
        }
        if startLooking { Task { await self.look() } }
        // On the kernel's clock, as the token's expiry is.
        let lifetime = until.timeIntervalSince(kernel.now())
        let ending = Task { [weak self] in
            try await Task.sleep(for: .milliseconds(Int(max(0, lifetime) * 1000)))
            self?.close(id)
        }
        do {
            let (clock, missed, gap) = try await threadPool.runIfActive { [kernel] in
                try kernel.store.read { db -> (Int64, [LiveEventRow], Bool) in
                    let clock = try LiveOutbox.clock(of: school, in: db)
                    guard let lastEventID, lastEventID < clock else { return (clock, [], false) }
                    let gap = try LiveOutbox.oldest(of: school, in: db).map { $0 > lastEventID + 1 } ?? true
                    return (clock, try LiveOutbox.events(of: school, after: lastEventID, through: clock, user: user, limit: 10_000, in: db), gap)
                }
            }
            continuation.yield(Data("retry: 2000\n\n".utf8))
            // Older than what is kept: the client reloads its lists rather than trust the stream.
            if gap { continuation.yield(Data("event: reset\ndata: {}\n\n".utf8)) }
            state.withLock { state in
                // A school's first stream here starts its cursor at the clock just read; whatever
                // committed later is the hub's to read.
                if state.cursors[school] == nil { state.cursors[school] = clock }
                guard var listener = state.listeners[id] else { return }
                let held = listener.held ?? []
                listener.held = nil
                listener.lastSent = min(lastEventID ?? clock, clock)
                for row in missed + held { listener.send(row) }
                state.listeners[id] = listener
            }
        } catch {
            ending.cancel()
            close(id)
            throw error
        }
        return APIStreamBody(chunks: chunks) { [weak self] in
            ending.cancel()
            self?.close(id)
        }
    }

    private func close(_ id: UUID) {
        let listener = state.withLock { state -> Listener? in
            let listener = state.listeners.removeValue(forKey: id)
            if let school = listener?.school, !state.listeners.values.contains(where: { $0.school == school }) {
                state.cursors[school] = nil
            }
            return listener
        }
        listener?.continuation.finish()
    }

    /// Looks while any stream is open, then stops (the next stream starts it again).
    private func look() async {
        var lastBeat = Date()
        while true {
            let cursors = state.withLock { state -> [SchoolID: Int64]? in
                if state.listeners.isEmpty {
                    state.looking = false
                    return nil
                }
                return state.cursors
            }
            guard let cursors else { return }
            var full = false
            do {
                let rows = try await threadPool.runIfActive { [kernel] in
                    try kernel.store.read { db in
                        Dictionary(uniqueKeysWithValues: try cursors.map { ($0.key, try LiveOutbox.events(of: $0.key, after: $0.value, limit: Self.batch, in: db)) })
                    }
                }
                full = rows.values.contains { $0.count == Self.batch }
                dispatch(rows)
            } catch {
                kernel.logger.warning("live events could not be read", metadata: ["error": "\(error)"])
            }
            if Date().timeIntervalSince(lastBeat) >= Self.heartbeat {
                lastBeat = Date()
                state.withLock { state in
                    for listener in state.listeners.values { listener.continuation.yield(Data(": keep-alive\n\n".utf8)) }
                }
            }
            if !full { await kernel.liveBell.wait(atMost: interval) }
        }
    }

    private func dispatch(_ rows: [SchoolID: [LiveEventRow]]) {
        state.withLock { state in
            for (school, schoolRows) in rows where !schoolRows.isEmpty {
                // A school whose last stream closed meanwhile has no cursor to move.
                guard let cursor = state.cursors[school], let last = schoolRows.last?.seq, last > cursor else { continue }
                state.cursors[school] = last
                for id in state.listeners.keys where state.listeners[id]?.school == school {
                    for row in schoolRows { state.listeners[id]?.send(row) }
                }
            }
        }
    }
}
