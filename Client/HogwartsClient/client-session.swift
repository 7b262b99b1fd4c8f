import Foundation
import GRDB

/// The signed-in user, as the sign-in answer described them.
public struct ClientSession: Sendable, Equatable {
    public let server: String
    public let user: Wire.AuthUser
    public let clientID: String
}

extension SyncClient {
    /// `POST /api/mobile/auth`: stores the tokens and the user. Signing in as someone else on
    /// the same store starts a new replica and client id, but never while changes are queued.
    @discardableResult
    public func signIn(identifier: String, password: String, schoolID: String? = nil) async throws -> Wire.AuthUser {
        var body: [String: String] = ["identifier": identifier, "password": password]
        if let schoolID { body["school_id"] = schoolID }
        let request = TransportRequest(method: "POST", path: "/api/mobile/auth", headers: ["Content-Type": "application/json"],
                                       body: try JSONEncoder().encode(body))
        let response: TransportResponse
        do {
            response = try await transport.send(request)
        } catch {
            throw ClientError.network(String(describing: error))
        }
        switch response.status {
        case 200:
            let auth = try decodeAuth(response)
            try await adopt(auth)
            return auth.user
        case 409:
            struct Several: Decodable {
                struct Choice: Decodable {
                    let id: String
                    let nameEn: String?
                    enum CodingKeys: String, CodingKey { case id, nameEn = "name_en" }
                }
                let schools: [Choice]?
            }
            let choices = (try? JSONDecoder().decode(Several.self, from: response.body))?.schools ?? []
            throw ClientError.severalSchools(choices.map { "\($0.id) (\($0.nameEn ?? ""))" })
        case 400..<500:
            let error = try? JSONDecoder().decode(Wire.ErrorBody.self, from: response.body)
            throw ClientError.signInRefused(error?.error ?? error?.code ?? "HTTP \(response.status)")
        default:
            throw Self.serverError(response)
        }
    }

    /// Tokens obtained elsewhere (an app's own sign-in screen, a test's token issuer).
    public func useTokens(access: String, refresh: String, user: Wire.AuthUser) async throws {
        try await adopt(Wire.AuthResponse(accessToken: access, refreshToken: refresh, expiresAt: nil, user: user))
    }

    public func session() async throws -> ClientSession? {
        try await store.queue.read { db in
            guard let userText = try db.meta(.user), let clientID = try db.meta(.clientId) else { return nil }
            let user = try JSONDecoder().decode(Wire.AuthUser.self, from: Data(userText.utf8))
            return ClientSession(server: try db.meta(.server) ?? "", user: user, clientID: clientID)
        }
    }

    /// Forgets the tokens; the replica and the outbox stay for the next sign-in of the same user.
    public func signOut() async throws {
        try await store.queue.write { db in
            try db.setMeta(.accessToken, nil)
            try db.setMeta(.refreshToken, nil)
        }
    }

    func adopt(_ auth: Wire.AuthResponse) async throws {
        let userText = String(decoding: try JSONEncoder().encode(auth.user), as: UTF8.self)
        let server = serverName
        try await store.queue.write { db in
            if let previousText = try db.meta(.user),
               let previous = try? JSONDecoder().decode(Wire.AuthUser.self, from: Data(previousText.utf8)),
               previous.id != auth.user.id || previous.schoolId != auth.user.schoolId {
                let queued = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox") ?? 0
                if queued > 0 {
                    throw ClientError.invalidInput(field: "email", reason: "\(previous.email)'s \(queued) queued changes are not sent yet; sync them first or use another --home")
                }
                // Another person: nothing of the previous one's may stay, and a client id is one user's.
                try db.execute(sql: "DELETE FROM entities; DELETE FROM overlay; DELETE FROM failed")
                for key in [MetaKey.clientId, .nextSeq, .cursor, .lastMutationSeq] { try db.setMeta(key, nil) }
            }
            try db.setMeta(.accessToken, auth.accessToken)
            try db.setMeta(.refreshToken, auth.refreshToken)
            try db.setMeta(.user, userText)
            if let server { try db.setMeta(.server, server) }
            if try db.meta(.clientId) == nil { try db.setMeta(.clientId, UUID().uuidString.lowercased()) }
        }
    }

    func decodeAuth(_ response: TransportResponse) throws -> Wire.AuthResponse {
        do {
            return try JSONDecoder().decode(Wire.AuthResponse.self, from: response.body)
        } catch {
            throw ClientError.protocolViolation("sign-in answer: \(error)")
        }
    }

    /// Sends with the access token; on a 401, refreshes the tokens once and resends once.
    func authorized(_ request: TransportRequest) async throws -> TransportResponse {
        guard let token = try await store.queue.read({ db in try db.meta(.accessToken) }) else { throw ClientError.notSignedIn }
        let first = try await sendCounting(request, token: token)
        guard first.status == 401 else { return first }
        try await refreshTokens()
        guard let fresh = try await store.queue.read({ db in try db.meta(.accessToken) }) else { throw ClientError.notSignedIn }
        let second = try await sendCounting(request, token: fresh)
        if second.status == 401 { throw ClientError.sessionExpired }
        return second
    }

    private func sendCounting(_ request: TransportRequest, token: String) async throws -> TransportResponse {
        var request = request
        request.headers["Authorization"] = "Bearer \(token)"
        do {
            return try await transport.send(request)
        } catch let error as ClientError {
            throw error
        } catch {
            throw ClientError.network(String(describing: error))
        }
    }

    /// `PUT /api/mobile/auth` with `X-Refresh-Token`: a new pair, or the session is over.
    func refreshTokens() async throws {
        guard let refresh = try await store.queue.read({ db in try db.meta(.refreshToken) }) else { throw ClientError.notSignedIn }
        let response: TransportResponse
        do {
            response = try await transport.send(TransportRequest(method: "PUT", path: "/api/mobile/auth", headers: ["X-Refresh-Token": refresh]))
        } catch {
            throw ClientError.network(String(describing: error))
        }
        if response.status == 401 || response.status == 403 { throw ClientError.sessionExpired }
        guard response.status == 200 else { throw Self.serverError(response) }
        try await adopt(try decodeAuth(response))
    }

    static func serverError(_ response: TransportResponse) -> ClientError {
        let body = try? JSONDecoder().decode(Wire.ErrorBody.self, from: response.body)
        return .server(status: response.status, code: body?.code, message: body?.error)
    }
}
