import Core
import Foundation
@testable import HogwartsClient
import Testing

/// The sync wire's exact text: the server's answers as its API writer puts them on the wire, the
/// client's push as its encoder does, each read back by the other side. A change to a shape in
/// HogwartsSyncWire that moves one byte (a key, its order, an explicit null) fails here.
@Suite("Sync wire: the exact JSON the server and the client rely on")
struct SyncWireTests {
    private func server(_ value: some Encodable) throws -> String {
        String(decoding: try APIResponse.json(value, keys: .camelCase).body, as: UTF8.self)
    }

    private func client<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try Wire.decoder().decode(type, from: Data(text.utf8))
    }

    @Test("a push: the client's mutation with baseVersion null, the server's results with their nulls and the stop")
    func push() throws {
        let request = Wire.PushRequest(clientId: "c1", mutations: [
            Wire.Mutation(seq: 1, id: "m1", name: "memo.add@1", args: ["n": 7], clientTime: "2026-11-29T08:00:00.000Z"),
        ])
        let text = String(decoding: try Wire.encoder().encode(request), as: UTF8.self)
        #expect(text == #"{"clientId":"c1","mutations":[{"args":{"n":7},"baseVersion":null,"clientTime":"2026-11-29T08:00:00.000Z","id":"m1","name":"memo.add@1","seq":1}],"schemaVersion":1}"#)
        let read = try APIJSON.decoder(.camelCase).decode(SyncPushRequest.self, from: Data(text.utf8))
        #expect(read == SyncPushRequest(clientId: "c1", mutations: [
            SyncPushMutation(seq: 1, id: "m1", name: "memo.add@1", args: ["n": 7], clientTime: "2026-11-29T08:00:00.000Z"),
        ]))
        #expect(try server(SyncPushMutation(seq: 2, id: "m2", name: "memo.add@1", args: [:], baseVersion: 4))
            == #"{"seq":2,"id":"m2","name":"memo.add@1","args":{},"clientTime":null,"baseVersion":4}"#)

        let answer = try server(SyncPushResponse(lastMutationSeq: 2, results: [
            SyncPushResult(seq: 1, status: .applied, result: ["id": "a1"]),
            SyncPushResult(seq: 2, status: .rejected, code: "SYNC_CONFLICT", error: "changed", current: ["version": 3]),
        ], stopped: SyncStop(reason: "outOfOrder", expectedSeq: 4)))
        #expect(answer == #"{"lastMutationSeq":2,"results":[{"seq":1,"status":"applied","code":null,"error":null,"current":null,"result":{"id":"a1"}},"#
            + #"{"seq":2,"status":"rejected","code":"SYNC_CONFLICT","error":"changed","current":{"version":3},"result":null}],"stopped":{"reason":"outOfOrder","expectedSeq":4}}"#)
        #expect(try client(Wire.PushResponse.self, answer) == Wire.PushResponse(lastMutationSeq: 2, results: [
            Wire.MutationResult(seq: 1, status: .applied, result: ["id": "a1"]),
            Wire.MutationResult(seq: 2, status: .rejected, code: "SYNC_CONFLICT", error: "changed", current: ["version": 3]),
        ], stopped: Wire.Stopped(reason: "outOfOrder", expectedSeq: 4)))
        #expect(try server(SyncPushResponse(lastMutationSeq: 0, results: [], stopped: nil)) == #"{"lastMutationSeq":0,"results":[],"stopped":null}"#)
    }

    @Test("a pull: an upsert and a delete with data null, the reset's nesting, and a page read with only its cursor")
    func pull() throws {
        let page = try server(SyncPullResponse.changes([
            SyncChange(seq: 5, type: "memo", id: "a", op: .upsert, data: ["body": "hi", "version": 5]),
            SyncChange(seq: 6, type: "memo", id: "b", op: .delete, data: nil),
        ], cursor: "cur", hasMore: true, lastMutationSeq: 2))
        #expect(page == #"{"changes":[{"seq":5,"type":"memo","id":"a","op":"upsert","data":{"body":"hi","version":5}},"#
            + #"{"seq":6,"type":"memo","id":"b","op":"delete","data":null}],"cursor":"cur","hasMore":true,"lastMutationSeq":2}"#)
        #expect(try client(Wire.PullResponse.self, page) == .changes([
            Wire.Change(seq: 5, type: "memo", id: "a", op: .upsert, data: ["body": "hi", "version": 5]),
            Wire.Change(seq: 6, type: "memo", id: "b", op: .delete, data: nil),
        ], cursor: "cur", hasMore: true, lastMutationSeq: 2))

        let reset = try server(SyncPullResponse.reset(.scopeChanged))
        #expect(reset == #"{"reset":{"reason":"scopeChanged"}}"#)
        #expect(try client(Wire.PullResponse.self, reset) == .reset(Wire.ResetReason(rawValue: "scopeChanged")))
        #expect(try client(Wire.PullResponse.self, #"{"cursor":"c"}"#) == .changes([], cursor: "c", hasMore: false, lastMutationSeq: 0))
    }

    @Test("a snapshot page: after null on the last page")
    func snapshot() throws {
        let last = try server(SyncSnapshotResponse(items: [SyncSnapshotItem(type: "memo", id: "a", data: ["version": 7])], after: nil, cursor: "cur"))
        #expect(last == #"{"items":[{"type":"memo","id":"a","data":{"version":7}}],"after":null,"cursor":"cur"}"#)
        #expect(try client(Wire.SnapshotPage.self, last)
            == Wire.SnapshotPage(items: [Wire.SnapshotItem(type: "memo", id: "a", data: ["version": 7])], after: nil, cursor: "cur"))
        #expect(try server(SyncSnapshotResponse(items: [], after: "next", cursor: "cur")) == #"{"items":[],"after":"next","cursor":"cur"}"#)
    }
}
