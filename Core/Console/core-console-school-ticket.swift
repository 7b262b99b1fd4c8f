import Crypto
import Foundation
import HogwartsBase
import HogwartsKernel
import HogwartsHTTP

/// What the school picker carries instead of the password, once the password was right in
/// several schools: the email, the schools where it was right (each with the identity module's
/// proof of the account as checked), an expiry two minutes on and a random nonce, signed with
/// HMAC-SHA256.
///
/// The key is derived from the server's current API signing key (the kernel's
/// `kernel_signing_keys`, sealed at rest, shared by every server on the database), under a label
/// of its own so a ticket is never a token and a token never a ticket; the ticket names the key,
/// so one signed just before a rotation still opens. The MAC also covers the browser's sign-in
/// CSRF cookie, so the ticket opens only in the browser it was given to. Its nonce is spent in
/// the database (`Kernel.admit` with one attempt per window: one statement, under the row's
/// lock), so it opens once even when the choice reaches another server.
struct ConsoleSchoolTicket: Sendable {
    static let lifetime: TimeInterval = 120
    static let field = "ticket"
    /// Far longer than any ticket the console makes; a longer field is not read.
    static let maximumLength = 4_000

    let email: String
    /// The schools, in the order they were offered, each with its proof.
    let schools: [(id: SchoolID, proof: String)]
    let nonce: String

    private struct Payload: Codable {
        let email: String
        let schools: [[String]]
        let expires: Int64
        let nonce: String

        enum CodingKeys: String, CodingKey {
            case email = "e", schools = "s", expires = "x", nonce = "n"
        }
    }

    /// A new ticket's text, signed with the current key and bound to `binding` (the CSRF cookie).
    static func issue(email: String, schools: [(id: SchoolID, proof: String)], binding: String, kernel: Kernel) throws -> String {
        let now = kernel.now()
        let keys = try kernel.tokenStore.signingKeys(at: now)
        guard let key = keys.all.first(where: { $0.id == keys.current }) else { throw KernelError.storage("no signing key") }
        let payload = Payload(email: email, schools: schools.map { [$0.id, $0.proof] },
                              expires: Int64((now.timeIntervalSince1970 + lifetime).rounded(.up)), nonce: randomNonce())
        let body = Base64URL.encode(try JSONEncoder().encode(payload))
        let signed = "v1.\(key.id).\(body)"
        return "\(signed).\(Base64URL.encode(mac(signed, binding: binding, secret: key.secret)))"
    }

    /// The ticket when its signature holds for this browser and it has not expired; nil for any
    /// other text. It is not spent here (see `spend`).
    static func open(_ text: String, binding: String, kernel: Kernel) throws -> ConsoleSchoolTicket? {
        guard text.utf8.count <= maximumLength, !binding.isEmpty else { return nil }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 4, parts[0] == "v1", let given = Base64URL.decode(parts[3]), let json = Base64URL.decode(parts[2]) else { return nil }
        let now = kernel.now()
        guard let key = try kernel.tokenStore.signingKeys(at: now).all.first(where: { $0.id == parts[1] }) else { return nil }
        let signed = parts[0...2].joined(separator: ".")
        guard HMAC<SHA256>.isValidAuthenticationCode(given, authenticating: Data(signed.utf8), using: derivedKey(key.secret, binding: binding))
        else { return nil }
        guard let payload = try? JSONDecoder().decode(Payload.self, from: json), Double(payload.expires) > now.timeIntervalSince1970,
              Double(payload.expires) <= now.timeIntervalSince1970 + lifetime + 5 else { return nil }
        let schools = payload.schools.compactMap { pair in pair.count == 2 ? (id: pair[0], proof: pair[1]) : nil }
        guard !schools.isEmpty, schools.count == payload.schools.count else { return nil }
        return ConsoleSchoolTicket(email: payload.email, schools: schools, nonce: payload.nonce)
    }

    /// Spends the ticket: true the first time, false ever after (on any server of the database).
    func spend(kernel: Kernel) throws -> Bool {
        // One attempt per window twice the ticket's life: the row outlives the ticket, so a spent
        // ticket can never be admitted again while it could still open.
        try kernel.admit("console.school-ticket|\(nonce)", limit: RateLimiter.Limit(attempts: 1, window: 2 * Self.lifetime)) == nil
    }

    private static func mac(_ signed: String, binding: String, secret: Data) -> Data {
        Data(HMAC<SHA256>.authenticationCode(for: Data(signed.utf8), using: derivedKey(secret, binding: binding)))
    }

    /// The ticket key: the signing key under the ticket's own label and the browser's CSRF cookie.
    private static func derivedKey(_ secret: Data, binding: String) -> SymmetricKey {
        let label = Data("hogwarts-console-school-ticket\n\(binding)".utf8)
        return SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: label, using: SymmetricKey(data: secret))))
    }

    private static func randomNonce() -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64URL.encode(Data((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }))
    }
}
