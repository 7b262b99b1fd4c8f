import AsyncHTTPClient
import Core
import Crypto
import Foundation
import NIOCore

/// The console's sign-in through a school's OpenID provider: the authorization-code flow with
/// PKCE (S256), `state` and `nonce` (OpenID Connect Core §3.1). Between the two legs the browser
/// holds, in an HttpOnly cookie, the school, the provider and the three secrets; the state must
/// come back unchanged, the code is exchanged with the verifier (and the client secret, for a
/// confidential client), and the ID token is checked as the mobile routes check one, with the
/// nonce we sent. Then `SignInWithOpenID` opens a session for the existing account, once per nonce.
struct AuthConsoleOpenID: ConsoleOpenID {
    func buttons(kernel: Kernel) throws -> [ConsoleOpenIDButton] {
        let schools = try kernel.schools()
        let offered = schools.map { school in (school, (try? kernel.run(SignInProviders.self, .init(), as: .anonymous, in: school.id)) ?? []) }
        // With providers in several schools, each button names its school too.
        let several = offered.filter { !$0.1.isEmpty }.count > 1
        return offered.flatMap { school, providers in
            providers.map { provider in
                let label = several ? LocalizedText(ar: "\(provider.name.ar) (\(school.name.ar))", en: "\(provider.name.en) (\(school.name.en))") : provider.name
                return ConsoleOpenIDButton(id: "\(school.id):\(provider.id)", label: label)
            }
        }
    }

    func start(button: String, redirectURI: String, kernel: Kernel) async throws -> ConsoleOpenIDStart? {
        let parts = button.split(separator: ":").map(String.init)
        guard parts.count == 2, let provider = Self.provider(parts[1], school: parts[0], kernel: kernel) else { return nil }
        let discovery = try await OpenIDKeyCache.shared.entry(issuer: provider.issuer).discovery
        guard let endpoint = discovery.authorizationEndpoint, IssuerAddress.isAcceptable(endpoint) else { throw OpenIDRefusal.discovery }
        let (state, nonce, verifier) = (Self.secret(), Self.secret(), Self.secret())
        var address = URLComponents(string: endpoint)
        address?.queryItems = [
            ("response_type", "code"), ("client_id", provider.clientID), ("redirect_uri", redirectURI), ("scope", "openid email profile"),
            ("state", state), ("nonce", nonce), ("code_challenge", Self.challenge(verifier)), ("code_challenge_method", "S256"),
        ].map { URLQueryItem(name: $0.0, value: $0.1) }
        guard let location = address?.url?.absoluteString else { throw OpenIDRefusal.discovery }
        return ConsoleOpenIDStart(location: location, kept: [parts[0], parts[1], state, nonce, verifier].joined(separator: "."))
    }

    func finish(kept: String, query: [String: String], redirectURI: String, kernel: Kernel, language: Language) async throws -> ConsoleSession? {
        let parts = kept.split(separator: ".").map(String.init)
        guard parts.count == 5, let code = query["code"], !code.isEmpty, query["state"] == parts[2],
              let provider = Self.provider(parts[1], school: parts[0], kernel: kernel) else { return nil }
        let (school, nonce, verifier) = (parts[0], parts[3], parts[4])
        let idToken = try await Self.exchange(code: code, verifier: verifier, redirectURI: redirectURI, provider: provider)
        let identity = try await IDTokenVerifier.verify(idToken, provider: provider, expectedNonce: nonce)
        let result = try kernel.run(SignInWithOpenID.self, .init(issuer: identity.issuer, clientID: identity.clientID, email: identity.email,
                                                                 subject: identity.subject, nonce: identity.nonce, opensSession: true, name: identity.name),
                                    as: .anonymous, in: school, language: language)
        guard let token = result.token, let user = result.user else { return nil }
        return ConsoleSession(token: token, user: try AuthConsoleIdentity.consoleUser(user, school: school, kernel: kernel))
    }

    private static func provider(_ id: String, school: SchoolID, kernel: Kernel) -> OpenIDProvider? {
        ((try? kernel.run(SignInProviders.self, .init(), as: .anonymous, in: school)) ?? []).first { $0.id == id }
    }

    /// The token endpoint's answer to the code: its `id_token`. A confidential client sends its
    /// secret in the form (`client_secret_post`), read from its file each time.
    private static func exchange(code: String, verifier: String, redirectURI: String, provider: OpenIDProvider) async throws -> String {
        let discovery = try await OpenIDKeyCache.shared.entry(issuer: provider.issuer).discovery
        guard let endpoint = discovery.tokenEndpoint, IssuerAddress.isAcceptable(endpoint) else { throw OpenIDRefusal.discovery }
        var fields = [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI), ("client_id", provider.clientID),
                      ("code_verifier", verifier)]
        if !provider.clientSecretFile.isEmpty {
            let secret = try String(contentsOfFile: provider.clientSecretFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            fields.append(("client_secret", secret))
        }
        var form = URLComponents()
        form.queryItems = fields.map { URLQueryItem(name: $0.0, value: $0.1) }
        // `+` is a space in a form body: URLComponents leaves it alone, so it is encoded here.
        let body = (form.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
        var request = HTTPClientRequest(url: endpoint)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Accept", value: "application/json")
        request.body = .bytes(ByteBuffer(string: body))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        let data = Data(try await response.body.collect(upTo: OpenIDKeyCache.maximumBody).readableBytesView)
        guard response.status == .ok, let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let idToken = object["id_token"] as? String else { throw OpenIDRefusal.malformed }
        return idToken
    }

    /// 32 random bytes, base64url: a state, a nonce or a PKCE verifier (RFC 7636 asks 43 to 128 characters).
    static func secret() -> String {
        Base64URL.encode(Data((0..<32).map { _ in UInt8.random(in: 0...255) }))
    }

    /// RFC 7636's S256: base64url of the verifier's SHA-256.
    static func challenge(_ verifier: String) -> String {
        Base64URL.encode(Data(SHA256.hash(data: Data(verifier.utf8))))
    }
}
