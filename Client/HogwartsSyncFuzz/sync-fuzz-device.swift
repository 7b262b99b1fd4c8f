import Foundation
import HogwartsClient

/// One fuzzed device: its store outlives restarts of the app (a new SyncClient on it).
final class FuzzDevice: @unchecked Sendable {
    let account: String
    let store: ClientStore
    let nemesis: Nemesis
    let progress: FuzzProgress
    var client: SyncClient
    /// What this device queued, in order: (seq, mutation id, client id of a message).
    var queued: [(seq: Int64, id: String, messageID: String?)] = []

    init(account: String, slot: ServerSlot, seed: UInt64, address: String, progress: FuzzProgress) throws {
        self.account = account
        self.progress = progress
        store = try ClientStore(path: nil)
        nemesis = Nemesis(slot: slot, seed: seed, address: address)
        client = SyncClient(store: store, transport: nemesis, clock: FuzzClock())
    }

    /// The app is killed and started again: nothing in memory survives, the store does.
    func restartApp() {
        client = SyncClient(store: store, transport: nemesis, clock: FuzzClock())
    }

    /// The app is killed during a sync (mid-push, or mid-pull when the push was quick): the sync
    /// is cancelled wherever it is, the process is gone once it stopped, and the app starts again.
    func killDuringSync(after nanoseconds: UInt64) async {
        progress.synced()
        let client = client
        // push() and pull() run in the caller's task (sync() runs in its own), so the cancel reaches them.
        let sync = Task {
            try await client.push()
            try await client.pull()
        }
        try? await Task.sleep(nanoseconds: nanoseconds)
        sync.cancel()
        _ = await sync.result
        nemesis.note("killed-mid-sync")
        restartApp()
    }

    func work(_ draws: [UInt64]) async throws {
        for draw in draws {
            try await enqueueOne(draw)
            switch draw % 12 {
            case 0: restartApp()
            case 1: await killDuringSync(after: (draw >> 40) % 2_000_000)
            case 2, 3, 4:
                progress.synced()
                _ = try? await client.sync()
            case 5:
                progress.synced()
                _ = try? await client.pull()
            default: break
            }
        }
        _ = try? await client.sync()
    }

    /// One mutation: mostly messages (exactly-once is countable), registers, and some the server
    /// refuses (a guardian's or student's register, an unknown conversation, an old date).
    func enqueueOne(_ draw: UInt64) async throws {
        let conversations = try await client.entities("conversation").map(\.id).sorted()
        let classes = try await client.entities("class").filter { $0.data["code"] != nil }.sorted { $0.id < $1.id }
        let kind = (draw >> 8) % 10
        let id = UUID().uuidString.lowercased()
        let seq: Int64
        var messageID: String?
        if kind < 5, !conversations.isEmpty {
            messageID = id
            seq = try await client.enqueue(name: "messages.send@1", args: [
                "conversation": .string(conversations[Int(draw >> 16) % conversations.count]), "body": .string("fuzz \(draw)"), "clientId": .string(id),
            ], id: id)
        } else if kind < 9, !classes.isEmpty {
            let schoolClass = classes[Int(draw >> 16) % classes.count]
            // Within a teacher's edit window (7 days) but for one day in ten.
            let daysBack = (draw >> 24) % 10 == 0 ? 30 : Int((draw >> 24) % 7)
            let day = Calendar(identifier: .gregorian).date(byAdding: .day, value: -daysBack, to: Date()) ?? Date()
            seq = try await client.enqueue(name: "attendance.take@1", args: [
                "classCode": schoolClass.data["code"] ?? .null, "date": .string(Self.day(day)),
                "period": (draw >> 32) % 3 == 0 ? .null : .string("P\(1 + (draw >> 34) % 4)"),
                "defaultStatus": (draw >> 36) % 2 == 0 ? "PRESENT" : "LATE",
            ], id: id)
        } else {
            messageID = id
            seq = try await client.enqueue(name: "messages.send@1", args: ["conversation": "no-such-conversation", "body": "refused", "clientId": .string(id)], id: id)
        }
        queued.append((seq, id, messageID))
        progress.queued()
    }

    static func day(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Africa/Khartoum") ?? .gmt
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    func drain() async throws {
        for _ in 0..<20 {
            let report = try await client.sync()
            if report.pending == 0 && report.waiting == nil && report.pullError == nil { return }
        }
    }

    /// What the checks of one device found, and how much they compared.
    struct Findings {
        var failures: [String] = []
        /// Mutations or messages the server holds more than once (must be 0).
        var duplicates = 0
        var entitiesCompared = 0
        var acknowledged = 0
        var rejected = 0
    }

    /// What a person would notice went wrong on this device, after draining. `copies` is how many
    /// server messages carry each client id (one read for all devices, not one per message).
    func check(truth: [String: JSONValue], server: FuzzServer, copies: [String: Int]) async throws -> Findings {
        var findings = Findings()
        func expect(_ holds: Bool, _ what: @autoclosure () -> String) { if !holds { findings.failures.append(what()) } }
        let outbox = try await client.outbox()
        expect(outbox.isEmpty, "outbox not drained: \(outbox.count) left, the head \(outbox.first.map { "\($0.seq) \($0.state)" } ?? "")")
        let ledger = try server.ledger(of: try await client.clientID())
        findings.acknowledged = ledger.count
        findings.rejected = ledger.filter { $0.status == "rejected" }.count
        findings.duplicates += ledger.count - Set(ledger.map(\.id)).count
        // Each acknowledged mutation once, in the order the device queued them.
        expect(ledger.map(\.seq) == queued.map(\.seq), "ledger seqs \(Self.difference(ledger.map(\.seq), queued.map(\.seq))) differ from queued")
        expect(ledger.map(\.id) == queued.map(\.id), "ledger ids not in queue order")
        let statuses = Dictionary(ledger.map { ($0.seq, $0.status) }, uniquingKeysWith: { first, _ in first })
        for mutation in queued {
            guard let messageID = mutation.messageID else { continue }
            let count = copies[messageID] ?? 0
            findings.duplicates += max(0, count - 1)
            expect(count == (statuses[mutation.seq] == "applied" ? 1 : 0), "message \(mutation.seq): \(count) copies")
        }
        let failed = try await client.failed().map(\.seq)
        expect(failed.allSatisfy { statuses[$0] == "rejected" }, "failed \(failed) are not all the server's rejections")
        let view = try await client.serverView()
        findings.entitiesCompared = view.count
        if view != truth {
            let differing = Set(view.keys).symmetricDifference(truth.keys).union(view.keys.filter { truth[$0] != nil && truth[$0] != view[$0] })
            findings.failures.append("replica differs from the server's view of its scope in \(differing.count) entities, e.g. \(differing.sorted().prefix(3))")
        }
        let messages = try await client.entities("message")
        expect(messages.allSatisfy { !$0.pending }, "messages left optimistic")
        return findings
    }

    /// Where two seq lists part, short enough to read in a report of a 10,000-mutation run.
    static func difference(_ found: [Int64], _ expected: [Int64]) -> String {
        let common = zip(found, expected).prefix { $0 == $1 }.count
        return "(\(found.count) vs \(expected.count) queued; first difference at \(common): \(found.dropFirst(common).prefix(5)) vs \(expected.dropFirst(common).prefix(5)))"
    }
}
