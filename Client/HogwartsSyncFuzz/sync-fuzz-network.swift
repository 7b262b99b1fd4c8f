import Core
import Foundation
import HogwartsClient

/// The server currently running. A restart puts a new kernel and router on the same database in
/// the slot and starts a new generation: an answer from an older generation never arrives, as
/// a request in flight when a server dies gets no reply.
public final class ServerSlot: @unchecked Sendable {
    private let lock = NSLock()
    private var transport: RouterTransport?
    private var count = 0

    public init() {}

    public var current: RouterTransport? {
        get { lock.withLock { transport } }
        set { lock.withLock { transport = newValue; count += 1 } }
    }

    /// The server and its generation, read together.
    var serving: (transport: RouterTransport?, generation: Int) { lock.withLock { (transport, count) } }
    var generation: Int { lock.withLock { count } }
}

/// A hostile network between one client and the server: drops requests, loses answers after
/// the server acted, delivers requests twice, delays them (so clients interleave differently),
/// replays old requests out of order, and can cut the device off (a partition). No server in
/// the slot = the server is down; a server restarted while a request was in it = no answer.
public final class Nemesis: SyncTransport, @unchecked Sendable {
    public struct Lost: Error {}
    /// How many old pushes are kept for replay: a uniform sample of all of them (reservoir
    /// sampling), so a replay is still any earlier push, without keeping every body of a long run.
    static let replayable = 64
    let slot: ServerSlot
    /// This device's IP as the server sees it.
    let address: String
    private let lock = NSLock()
    private var random: SeededRandom
    private var history: [TransportRequest] = []
    private var pushesSeen = 0
    private var pushBytes = 0
    private var calm = false
    private var cut = false
    private var counts: [String: Int] = [:]

    public init(slot: ServerSlot, seed: UInt64, address: String = "10.0.0.1") {
        self.slot = slot
        self.address = address
        random = SeededRandom(seed: seed)
    }

    /// For draining: every request goes through untouched.
    public func quiet(_ on: Bool = true) { lock.withLock { calm = on } }
    /// A partition: every request of this device fails, while the others carry on.
    public func partition(_ on: Bool = true) { lock.withLock { cut = on } }
    public var faults: [String: Int] { lock.withLock { counts } }
    /// Pushes sent and their bytes: what a replay history keeping every push would hold.
    public var pushes: (count: Int, bytes: Int) { lock.withLock { (pushesSeen, pushBytes) } }

    func note(_ fault: String) { lock.withLock { counts[fault, default: 0] += 1 } }

    private func decide() -> (cut: Bool, drop: Bool, lose: Bool, twice: Bool, delay: UInt64, replay: TransportRequest?) {
        lock.withLock {
            if cut { counts["partitioned", default: 0] += 1 }
            if calm || cut { return (cut, false, false, false, 0, nil) }
            let drop = random.chance(0.08)
            let lose = random.chance(0.08)
            let twice = random.chance(0.05)
            let delay = random.chance(0.1) ? random.next() % 3_000_000 : 0
            let replay = !history.isEmpty && random.chance(0.05) ? history[Int(random.next() % UInt64(history.count))] : nil
            for (name, happened) in [("drop", drop), ("lose", lose), ("twice", twice), ("delay", delay > 0), ("replay", replay != nil)] where happened {
                counts[name, default: 0] += 1
            }
            return (false, drop, lose, twice, delay, replay)
        }
    }

    /// Keeps `request` in the replay sample: the n-th push replaces a random kept one with chance k/n.
    private func remember(_ request: TransportRequest) {
        lock.withLock {
            pushesSeen += 1
            pushBytes += request.body?.count ?? 0
            if history.count < Self.replayable {
                history.append(request)
            } else {
                let slot = Int(random.next() % UInt64(pushesSeen))
                if slot < Self.replayable { history[slot] = request }
            }
        }
    }

    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        // A killed app sends nothing more.
        if Task.isCancelled { throw CancellationError() }
        let fate = decide()
        if fate.cut { throw Lost() }
        if request.method == "POST" && request.path.hasSuffix("/sync/push") { remember(request) }
        let (serving, generation) = slot.serving
        guard let server = serving?.from(address) else { throw Lost() }
        if let replay = fate.replay { _ = try? await server.send(replay) }   // an old push arriving late
        if fate.drop { throw Lost() }
        if fate.delay > 0 { try? await Task.sleep(nanoseconds: fate.delay) }
        if fate.twice { _ = try? await server.send(request) }
        let answer = try await server.send(request)
        if slot.generation != generation {
            note("restart-mid-request")
            throw Lost()
        }
        if fate.lose { throw Lost() }
        // The app was killed while the answer was on its way: it never reads it.
        if Task.isCancelled { throw CancellationError() }
        return answer
    }
}
