import Foundation
import HogwartsBase

/// The console's cookies: the session (`<school>.<token>`), the CSRF token of the sign-in form
/// before there is a session, and the language of someone not signed in. Every cookie is
/// HttpOnly and SameSite=Strict, and Secure behind TLS.
enum ConsoleCookies {
    static let session = "hogwarts_session"
    static let signInCSRF = "hogwarts_csrf"
    static let language = "hogwarts_lang"

    static func parse(_ header: String?) -> [String: String] {
        var cookies: [String: String] = [:]
        for part in (header ?? "").split(separator: ";") {
            let pieces = part.split(separator: "=", maxSplits: 1)
            guard pieces.count == 2 else { continue }
            let name = pieces[0].trimmingCharacters(in: .whitespaces)
            if cookies[name] == nil { cookies[name] = pieces[1].trimmingCharacters(in: .whitespaces) }
        }
        return cookies
    }

    /// `lax`: only for a cookie that must come back with another site's redirect (an OpenID provider's).
    static func set(_ name: String, _ value: String, maxAge: Int?, secure: Bool, lax: Bool = false) -> String {
        var parts = ["\(name)=\(value)", "Path=/", "HttpOnly", lax ? "SameSite=Lax" : "SameSite=Strict"]
        if let maxAge { parts.append("Max-Age=\(maxAge)") }
        if secure { parts.append("Secure") }
        return parts.joined(separator: "; ")
    }

    static func clear(_ name: String, secure: Bool) -> String {
        set(name, "", maxAge: 0, secure: secure)
    }

    /// The school and token of a session cookie, nil when malformed.
    static func sessionParts(_ value: String?) -> (school: SchoolID, token: String)? {
        guard let value, let dot = value.firstIndex(of: ".") else { return nil }
        let school = String(value[..<dot])
        let token = String(value[value.index(after: dot)...])
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_"))
        guard !school.isEmpty, !token.isEmpty, token.count <= 200, school.count <= 100,
              (school + token).unicodeScalars.allSatisfy(allowed.contains) else { return nil }
        return (school, token)
    }
}

/// Cross-site request forgery tokens. A session's token is derived from its secret (which only
/// the HttpOnly cookie holds), so no other site can know it; the sign-in form, before there is a
/// session, compares its field with a random cookie (double submit).
enum ConsoleCSRF {
    static let field = "_csrf"

    static func token(forSession secret: String) -> String {
        String(Digest.sha256Hex(Data("hogwarts-console-csrf:\(secret)".utf8)).prefix(40))
    }

    static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<20).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }.joined()
    }

    /// Equal strings, compared in time that does not depend on where they differ.
    static func matches(_ given: String?, _ expected: String) -> Bool {
        guard let given, given.utf8.count == expected.utf8.count, !expected.isEmpty else { return false }
        return zip(given.utf8, expected.utf8).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
