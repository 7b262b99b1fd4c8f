import Foundation
import HogwartsClient

/// SplitMix64: a seeded generator, so a failing run can be repeated from its printed seed.
struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func chance(_ p: Double) -> Bool { Double(next() % 1_000_000) / 1_000_000 < p }
}

/// The server currently running; a restart puts a new one in the slot.
final class ServerSlot: @unchecked Sendable {
    private let lock = NSLock()
    private var transport: (any SyncTransport)?
    var current: (any SyncTransport)? {
        get { lock.withLock { transport } }
        set { lock.withLock { transport = newValue } }
    }
}

/// A hostile network between one client and the server: drops requests, loses answers after
/// the server acted, delivers requests twice, delays them (so clients interleave differently),
/// and replays old requests out of order. No server in the slot = the server is down.
final class Nemesis: SyncTransport, @unchecked Sendable {
    struct Lost: Error {}
    let slot: ServerSlot
    private let lock = NSLock()
    private var random: SeededRandom
    private var history: [TransportRequest] = []
    private var calm = false
    private(set) var faults: [String: Int] = [:]

    init(slot: ServerSlot, seed: UInt64) {
        self.slot = slot
        random = SeededRandom(seed: seed)
    }

    /// For draining: every request goes through untouched.
    func quiet(_ on: Bool = true) { lock.withLock { calm = on } }

    private func decide() -> (drop: Bool, lose: Bool, twice: Bool, delay: UInt64, replay: TransportRequest?) {
        lock.withLock {
            if calm { return (false, false, false, 0, nil) }
            let drop = random.chance(0.08)
            let lose = random.chance(0.08)
            let twice = random.chance(0.05)
            let delay = random.chance(0.1) ? random.next() % 3_000_000 : 0
            let replay = !history.isEmpty && random.chance(0.05) ? history[Int(random.next() % UInt64(history.count))] : nil
            for (name, happened) in [("drop", drop), ("lose", lose), ("twice", twice), ("delay", delay > 0), ("replay", replay != nil)] where happened {
                faults[name, default: 0] += 1
            }
            return (drop, lose, twice, delay, replay)
        }
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let fate = decide()
        if request.method == "POST" && request.path.hasSuffix("/sync/push") { lock.withLock { history.append(request) } }
        guard let server = slot.current else { throw Lost() }
        if let replay = fate.replay { _ = try? await server.send(replay) }   // an old push arriving late
        if fate.drop { throw Lost() }
        if fate.delay > 0 { try? await Task.sleep(nanoseconds: fate.delay) }
        if fate.twice { _ = try? await server.send(request) }
        let answer = try await server.send(request)
        if fate.lose { throw Lost() }
        return answer
    }
}
