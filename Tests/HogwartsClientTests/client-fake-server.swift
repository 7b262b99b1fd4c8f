import Foundation
import HogwartsClient

/// A small in-memory server that speaks the sync wire protocol, for the client's unit tests:
/// exactly-once by (client, seq), a change log with a cursor, snapshots and resets, plus
/// switches to fail, drop answers and expire tokens.
///
/// Mutations: `item.set@1 {key, value}` upserts an `item`; `item.delete@1 {key}` deletes it;
/// `item.refuse@1` is always rejected with `ITEM_REFUSED`.
actor FakeSyncServer: SyncTransport {
    struct Applied: Equatable {
        let client: String
        let seq: Int
        let id: String
    }

    private var clients: [String: Int] = [:]
    private var stored: [String: [Int: (id: String, result: Wire.MutationResult)]] = [:]
    private var entities: [String: JSONValue] = [:]
    private var log: [Wire.Change] = []
    private var clock = 0
    private(set) var applied: [Applied] = []
    private(set) var pushes: [Wire.PushRequest] = []
    private(set) var requests: [TransportRequest] = []

    /// The next n requests get no answer (offline).
    var offline = 0
    /// The next n pushes answer 503.
    var busy = 0
    /// What a busy answer puts in `Retry-After` (nil: no header).
    var busyRetryAfter: String? = "1"
    /// 503 or 429 for a busy answer.
    var busyStatus = 503
    /// The next n pushes are applied, then the answer is lost.
    var loseAnswers = 0
    /// The next pull answers a reset.
    var resetNext: String?
    var validTokens: Set<String> = ["access-1"]
    private var issued = 1

    func setOffline(_ n: Int) { offline = n }
    func setBusy(_ n: Int, retryAfter: String? = "1", status: Int = 503) {
        busy = n
        busyRetryAfter = retryAfter
        busyStatus = status
    }
    func setLoseAnswers(_ n: Int) { loseAnswers = n }
    func setResetNext(_ reason: String?) { resetNext = reason }
    func expireTokens() { validTokens = [] }
    func pushCount() -> Int { pushes.count }
    func lastSeq(of client: String) -> Int { clients[client] ?? 0 }
    func entity(_ key: String) -> JSONValue? { entities["item/\(key)"] }

    /// A write by someone else (the office), seen by every client's pull.
    func serverWrite(key: String, value: String) {
        upsert(key: key, value: value)
    }

    /// Any entity written on the server (classes and students for the appliers' tests).
    func serverUpsert(_ type: String, _ id: String, _ data: JSONValue) {
        clock += 1
        entities["\(type)/\(id)"] = data
        log.append(Wire.Change(seq: clock, type: type, id: id, op: .upsert, data: data))
    }

    struct Offline: Error {}

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        requests.append(request)
        if offline > 0 {
            offline -= 1
            throw Offline()
        }
        if request.path == "/api/mobile/auth" { return try auth(request) }
        guard let header = request.headers["Authorization"], validTokens.contains(String(header.dropFirst("Bearer ".count))) else {
            return TransportResponse(status: 401, body: Data(#"{"error":"expired","code":"AUTH_TOKEN_EXPIRED","details":[]}"#.utf8))
        }
        if request.path == "/api/v1/sync/push" { return try push(request) }
        if request.path.hasPrefix("/api/v1/sync/pull") { return try pull(request) }
        if request.path.hasPrefix("/api/v1/sync/snapshot") { return try snapshot(request) }
        return TransportResponse(status: 404)
    }

    private func auth(_ request: TransportRequest) throws -> TransportResponse {
        if request.method == "PUT" && request.headers["X-Refresh-Token"] != "refresh-\(issued)" {
            return TransportResponse(status: 401, body: Data(#"{"error":"expired","code":"AUTH_TOKEN_EXPIRED","details":[]}"#.utf8))
        }
        issued += 1
        validTokens = ["access-\(issued)"]
        let body: JSONValue = ["access_token": .string("access-\(issued)"), "refresh_token": .string("refresh-\(issued)"), "expires_at": 0,
                               "user": ["id": "teacher-1", "email": "teacher@example.org", "school_id": "school-1", "role": "TEACHER",
                                        "given_name": "Test", "family_name": "Teacher", "avatar_url": nil, "grade": nil]]
        return TransportResponse(status: 200, body: Data(try body.text().utf8))
    }

    private func push(_ request: TransportRequest) throws -> TransportResponse {
        let push = try JSONDecoder().decode(Wire.PushRequest.self, from: request.body ?? Data())
        pushes.append(push)
        if busy > 0 {
            busy -= 1
            return TransportResponse(status: busyStatus, headers: busyRetryAfter.map { ["Retry-After": $0] } ?? [:],
                                     body: Data(#"{"error":"busy","code":"SYNC_BUSY","details":[]}"#.utf8))
        }
        var results: [Wire.MutationResult] = []
        var stopped: Wire.Stopped?
        for mutation in push.mutations {
            let last = clients[push.clientId] ?? 0
            if mutation.seq <= last {
                guard let earlier = stored[push.clientId]?[mutation.seq], earlier.id == mutation.id else {
                    return TransportResponse(status: 409, body: Data(#"{"error":"reused","code":"SYNC_SEQ_REUSED","details":[]}"#.utf8))
                }
                var copy = earlier.result
                copy.status = .duplicate
                results.append(copy)
                continue
            }
            if mutation.seq > last + 1 {
                stopped = Wire.Stopped(reason: "outOfOrder", expectedSeq: last + 1)
                break
            }
            let result = apply(mutation)
            if result.status == .applied { applied.append(Applied(client: push.clientId, seq: mutation.seq, id: mutation.id)) }
            clients[push.clientId] = mutation.seq
            stored[push.clientId, default: [:]][mutation.seq] = (mutation.id, result)
            results.append(result)
        }
        if loseAnswers > 0 {
            loseAnswers -= 1
            throw Offline()
        }
        let answer = Wire.PushResponse(lastMutationSeq: clients[push.clientId] ?? 0, results: results, stopped: stopped)
        return TransportResponse(status: 200, body: try JSONEncoder().encode(answer))
    }

    private func apply(_ mutation: Wire.Mutation) -> Wire.MutationResult {
        switch mutation.name {
        case "item.set@1":
            guard let key = mutation.args["key"]?.string, let value = mutation.args["value"]?.string else {
                return Wire.MutationResult(seq: mutation.seq, status: .rejected, code: "ITEM_INVALID", error: "key and value")
            }
            upsert(key: key, value: value)
            return Wire.MutationResult(seq: mutation.seq, status: .applied)
        case "item.delete@1":
            guard let key = mutation.args["key"]?.string else { return Wire.MutationResult(seq: mutation.seq, status: .rejected, code: "ITEM_INVALID") }
            clock += 1
            entities["item/\(key)"] = nil
            log.append(Wire.Change(seq: clock, type: "item", id: key, op: .delete, data: nil))
            return Wire.MutationResult(seq: mutation.seq, status: .applied)
        default:
            return Wire.MutationResult(seq: mutation.seq, status: .rejected, code: "ITEM_REFUSED", error: "refused by the fake server",
                                       current: ["value": "server"])
        }
    }

    private func upsert(key: String, value: String) {
        clock += 1
        let data: JSONValue = ["id": .string(key), "value": .string(value)]
        entities["item/\(key)"] = data
        log.append(Wire.Change(seq: clock, type: "item", id: key, op: .upsert, data: data))
    }

    private func query(_ path: String) -> [String: String] {
        var fields: [String: String] = [:]
        for item in URLComponents(string: path)?.queryItems ?? [] { fields[item.name] = item.value ?? "" }
        return fields
    }

    private func pull(_ request: TransportRequest) throws -> TransportResponse {
        if let reason = resetNext {
            resetNext = nil
            return TransportResponse(status: 200, body: try JSONEncoder().encode(Wire.PullResponse.reset(Wire.ResetReason(rawValue: reason))))
        }
        let fields = query(request.path)
        let after = Int(fields["cursor"] ?? "") ?? 0
        let limit = Int(fields["limit"] ?? "") ?? 500
        let newer = log.filter { $0.seq > after }
        let page = Array(newer.prefix(limit))
        let answer = Wire.PullResponse.changes(page, cursor: String(page.last?.seq ?? after), hasMore: newer.count > limit,
                                               lastMutationSeq: clients[fields["clientId"] ?? ""] ?? 0)
        return TransportResponse(status: 200, body: try JSONEncoder().encode(answer))
    }

    private func snapshot(_ request: TransportRequest) throws -> TransportResponse {
        let fields = query(request.path)
        let after = fields["after"] ?? ""
        let limit = Int(fields["limit"] ?? "") ?? 500
        let keys = entities.keys.sorted().filter { $0 > after }
        let page = Array(keys.prefix(limit))
        let items = page.compactMap { key -> Wire.SnapshotItem? in
            guard let data = entities[key], let slash = key.lastIndex(of: "/") else { return nil }
            return Wire.SnapshotItem(type: String(key[..<slash]), id: String(key[key.index(after: slash)...]), data: data)
        }
        let answer = Wire.SnapshotPage(items: items, after: keys.count > limit ? page.last : nil, cursor: String(clock))
        return TransportResponse(status: 200, body: try JSONEncoder().encode(answer))
    }
}

/// Records the waits instead of sleeping.
final class TestClock: SyncClock, @unchecked Sendable {
    private let lock = NSLock()
    private var sleeps: [Double] = []
    private var current = Date(timeIntervalSince1970: 1_795_000_000)

    func now() -> Date { lock.withLock { current } }

    func sleep(seconds: Double) async throws {
        lock.withLock {
            sleeps.append(seconds)
            current = current.addingTimeInterval(seconds)
        }
    }

    var waits: [Double] { lock.withLock { sleeps } }
}

/// The test applier for `item.set@1`: the new value shows at once.
let itemAppliers = LocalAppliers([
    "item.set@1": { args, effects in
        guard let key = args["key"]?.string, let value = args["value"]?.string else {
            throw ClientError.invalidInput(field: "key", reason: "missing")
        }
        try effects.put("item", id: key, data: ["id": .string(key), "value": .string(value)])
    },
])

/// A signed-in client over the fake server, in memory.
func makeClient(_ server: FakeSyncServer, clock: TestClock = TestClock(), store: ClientStore? = nil) async throws -> SyncClient {
    let client = SyncClient(store: try store ?? ClientStore(path: nil), transport: server, clock: clock, appliers: itemAppliers)
    try await client.signIn(identifier: "teacher@example.org", password: "secret")
    return client
}

func set(_ key: String, _ value: String) -> JSONValue { ["key": .string(key), "value": .string(value)] }
