import Core
import Foundation
import GRDB
import Hummingbird
import JWTKit
import NIOCore
import NIOPosix

/// The student list without the platform: the JWT checked with jwt-kit (HS256, the keys of
/// `kernel_signing_keys`), the same count and 20-row page the teacher's list reads (GRDB on a
/// `DatabasePool`, on an `NIOThreadPool`, prepared statements cached per connection), and
/// `JSONEncoder`. No middleware, no module switch, no permission look-up, no log line.
struct BareStudentList: Sendable {
    let database: DatabasePool
    let threadPool: NIOThreadPool
    let keys: JWTKeyCollection

    /// Opens its own pool on the bench database and loads every signing key.
    static func make(databasePath: String, kernel: Kernel, threadPool: NIOThreadPool) throws -> BareStudentList {
        let database = try DatabasePool(path: databasePath)
        return BareStudentList(database: database, threadPool: threadPool, keys: try FloorKeys.load(kernel))
    }

    func respond(to request: Request) async throws -> Response {
        guard let claims = await FloorKeys.accessClaims(request, keys), let role = claims.role else { return FloorKeys.status(.unauthorized) }
        let query = request.uri.queryParameters
        let page = query["page"].flatMap { Int(String($0)) } ?? 1
        let perPage = query["per_page"].flatMap { Int(String($0)) } ?? 20
        guard (1...1_000_000).contains(page), (1...100).contains(perPage) else { return FloorKeys.status(.badRequest) }

        let database = database
        let scope = FloorQuery.Scope(role: role, viewer: claims.sub.value, school: claims.schoolID)
        let today = FloorQuery.today()
        let result = try await threadPool.runIfActive {
            try database.read { db in try FloorQuery.page(db, scope: scope, today: today, page: page, perPage: perPage) }
        }
        let body = try JSONEncoder().encode(result)
        var response = Response(status: .ok, body: .init(byteBuffer: ByteBuffer(bytes: body)))
        response.headers[.contentType] = "application/json; charset=utf-8"
        return response
    }
}

/// The floors' own token check: jwt-kit with every signing key (stored sealed: the kernel opens them).
enum FloorKeys {
    static func load(_ kernel: Kernel) throws -> JWTKeyCollection {
        let keys = JWTKeyCollection()
        for (id, secret) in try kernel.apiSigningKeys() {
            try Blocking.run { _ = await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256, kid: JWKIdentifier(string: id)) }
        }
        return keys
    }

    /// The bearer token's claims when it is a valid access token, else nil (401).
    static func accessClaims(_ request: Request, _ keys: JWTKeyCollection) async -> FloorClaims? {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer "),
              let claims = try? await keys.verify(String(header.dropFirst(7)), as: FloorClaims.self), claims.type == "access" else { return nil }
        return claims
    }

    static func status(_ status: HTTPResponse.Status) -> Response {
        Response(status: status, body: .init(byteBuffer: ByteBuffer(string: "{\"error\":\"\(status.reasonPhrase)\"}")))
    }
}

/// What the floor reads of an access token (jwt-kit decodes only these, ignoring the rest).
struct FloorClaims: JWTPayload {
    let sub: SubjectClaim
    let schoolID: String
    let role: String?
    let type: String
    let exp: ExpirationClaim

    enum CodingKeys: String, CodingKey {
        case sub, role, type, exp
        case schoolID = "school_id"
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
    }
}
