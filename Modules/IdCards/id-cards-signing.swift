import Core
import Crypto
import Foundation

/// What a card's QR code carries: a compact JWS (HS256) any JWT library reads, signed with the
/// school's own key. `iss` says what it is, `sch` whose, `sub` the account, `num` the GR number
/// of a student (null for staff).
struct IdCardClaims: Codable, Equatable {
    var iss: String
    var sch: String
    var sub: String
    var role: String
    var num: String?
    var iat: Int
    var exp: Int

    static let issuer = "hogwarts-id-card"
    /// A card's payload is good for a year; opening the card again gives a fresh one.
    static let lifetime: TimeInterval = 365 * 24 * 3600
}

/// The school's signing keys (this module's table) and the JWS encoding.
enum IdCardSigning {
    struct Header: Codable {
        var alg: String
        var typ: String
        var kid: String
    }

    /// The key new cards are signed with, made on the school's first card.
    static func currentKey(_ context: ActionContext) throws -> (id: String, secret: SymmetricKey) {
        if let row = try context.database.fetchOne("SELECT id, secret FROM id_cards_keys WHERE school_id = :school_id ORDER BY created_at, id LIMIT 1"),
           let secret = Data(base64Encoded: row.string("secret")) {
            return (row.string("id"), SymmetricKey(data: secret))
        }
        let secret = SymmetricKey(size: .bits256)
        let id = context.newID()
        try context.database.insert(into: "id_cards_keys", [
            "id": .text(id), "secret": .text(secret.withUnsafeBytes { Data($0) }.base64EncodedString()), "created_at": SQLValue(context.now),
        ])
        return (id, secret)
    }

    static func key(id: String, _ context: ActionContext) throws -> SymmetricKey? {
        let row = try context.database.fetchOne("SELECT secret FROM id_cards_keys WHERE school_id = :school_id AND id = :id", ["id": .text(id)])
        return row.flatMap { Data(base64Encoded: $0.string("secret")) }.map { SymmetricKey(data: $0) }
    }

    static func sign(_ claims: IdCardClaims, _ context: ActionContext) throws -> String {
        let key = try currentKey(context)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let signingInput = [try encoder.encode(Header(alg: "HS256", typ: "JWT", kid: key.id)), try encoder.encode(claims)]
            .map(Base64URL.encode).joined(separator: ".")
        let signature = HMAC<SHA256>.authenticationCode(for: Data(signingInput.utf8), using: key.secret)
        return signingInput + "." + Base64URL.encode(Data(signature))
    }

    /// The claims of a payload this school signed, or `invalidCard`.
    static func verify(_ payload: String, _ context: ActionContext) throws -> IdCardClaims {
        let parts = payload.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let headerData = Base64URL.decode(parts[0]), let claimsData = Base64URL.decode(parts[1]),
              let signature = Base64URL.decode(parts[2]),
              let header = try? JSONDecoder().decode(Header.self, from: headerData), header.alg == "HS256",
              let key = try self.key(id: header.kid, context),
              HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: Data("\(parts[0]).\(parts[1])".utf8), using: key),
              let claims = try? JSONDecoder().decode(IdCardClaims.self, from: claimsData),
              claims.iss == IdCardClaims.issuer, claims.sch == context.school.id,
              Double(claims.exp) > context.now.timeIntervalSince1970
        else { throw IdCardsError.invalidCard }
        return claims
    }
}
