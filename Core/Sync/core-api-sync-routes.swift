import Foundation
import HogwartsHTTP

/// The offline sync protocol (Core/Sync): push queued mutations, pull changes in the caller's
/// scope, snapshot everything in it. camelCase JSON, as the wire protocol fixes it.
enum SyncRoutes {
    static var all: [APIRoute] { [push, pull, snapshot] }

    private static let mutation: APISchema = .object([
        ("seq", .integer(minimum: 1)), ("id", .id), ("name", .text), ("args", .anyObject),
        ("clientTime", .optional(.nullable(.dateTime))), ("baseVersion", .optional(.nullable(.integer(minimum: 0)))),
    ])

    private static let result: APISchema = .object([
        ("seq", .integer(minimum: 1)), ("status", .values(of: SyncMutationStatus.self)),
        ("code", .nullable(.text)), ("error", .nullable(.text)), ("current", .nullable(.anyObject)), ("result", .nullable(.anyObject)),
    ])

    private static var push: APIRoute {
        APIRoute(.post, "/api/v1/sync/push", summary: "Applies a client's queued mutations in order, each exactly once",
                 body: .object([("clientId", .string(format: "uuid")), ("schemaVersion", .integer(minimum: 1)),
                                ("mutations", .array(mutation))]),
                 response: .object([("lastMutationSeq", .integer(minimum: 0)), ("results", .array(result)),
                                    ("stopped", .nullable(.object([("reason", .values(["outOfOrder"])), ("expectedSeq", .integer(minimum: 1))])))])) { request in
            let body = try request.decode(SyncPushRequest.self, keys: .camelCase)
            let school = try request.requireSchool()
            let principal = request.principal
            let language = request.language
            let response = try await sync { try await request.offload(on: .writes) { kernel in try kernel.syncPush(body, as: principal, in: school, language: language) } }
            return try .json(response, keys: .camelCase)
        }
    }

    private static var pull: APIRoute {
        let change: APISchema = .object([("seq", .integer(minimum: 1)), ("type", .text), ("id", .id), ("op", .values(["upsert", "delete"])),
                                         ("data", .nullable(.anyObject))])
        return APIRoute(.get, "/api/v1/sync/pull", summary: "Changes in the caller's scope after a cursor, or a reset",
                        query: [APIParameter("clientId", .string(format: "uuid"), required: true), APIParameter("cursor", .text),
                                APIParameter("limit", .integer(minimum: 1, maximum: SyncProtocol.maximumLimit))],
                        response: .object([("changes", .optional(.array(change))), ("cursor", .optional(.text)), ("hasMore", .optional(.boolean)),
                                           ("lastMutationSeq", .optional(.integer(minimum: 0))),
                                           ("reset", .optional(.object([("reason", .values(["cursorExpired", "scopeChanged", "schemaChanged"]))])))])) { request in
            let school = try request.requireSchool()
            guard let clientID = try request.queryText("clientId") else { throw APIError.invalidField("clientId", reason: "missing") }
            let cursor = try request.queryText("cursor", maxLength: 1000)
            let limit = try request.queryInteger("limit", in: 1...SyncProtocol.maximumLimit) ?? SyncProtocol.defaultLimit
            let principal = request.principal
            let response = try await sync {
                try await request.offload { kernel in try kernel.syncPull(clientID: clientID, cursor: cursor, limit: limit, as: principal, in: school) }
            }
            return try .json(response, keys: .camelCase)
        }
    }

    private static var snapshot: APIRoute {
        let item: APISchema = .object([("type", .text), ("id", .id), ("data", .anyObject)])
        return APIRoute(.get, "/api/v1/sync/snapshot", summary: "Everything in the caller's scope, in pages, with the cursor to pull from after",
                        query: [APIParameter("after", .text), APIParameter("limit", .integer(minimum: 1, maximum: SyncProtocol.maximumLimit))],
                        response: .object([("items", .array(item)), ("after", .nullable(.text)), ("cursor", .text)])) { request in
            let school = try request.requireSchool()
            let after = try request.queryText("after", maxLength: 2000)
            let limit = try request.queryInteger("limit", in: 1...SyncProtocol.maximumLimit) ?? SyncProtocol.defaultLimit
            let principal = request.principal
            let response = try await sync {
                try await request.offload { kernel in try kernel.syncSnapshot(after: after, limit: limit, as: principal, in: school) }
            }
            return try .json(response, keys: .camelCase)
        }
    }

    /// The protocol's own refusals carry their own statuses (426, 503 with Retry-After).
    private static func sync<T>(_ work: () async throws -> T) async throws -> T {
        do {
            return try await work()
        } catch let error as SyncError {
            throw error.apiError
        }
    }
}

/// Offline sync on the API server: `/api/v1/sync/*`.
public struct SyncServerExtension: ServerExtension {
    public init() {}

    public func routes(_ server: APIServer) -> [APIRoute] { SyncRoutes.all }
}
