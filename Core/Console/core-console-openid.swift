import Foundation
import HTTPTypes
import Hummingbird
import HogwartsKernel
import HogwartsHTTP

/// Sign-in through a school's OpenID Connect provider (Google, Microsoft, any standard one),
/// offered by the identity module. The shell keeps what it is given between the two legs in an
/// HttpOnly cookie and knows nothing of the protocol: the module builds the provider's address
/// (state, nonce, PKCE) and, when the browser comes back, exchanges the code and checks the ID
/// token before it opens a session.
public protocol ConsoleOpenID: Sendable {
    /// The sign-in page's buttons, one per configured provider of each school. Synchronous kernel work.
    func buttons(kernel: Kernel) throws -> [ConsoleOpenIDButton]
    /// Where to send the browser for `button`, and what to keep until it comes back; nil for a
    /// button that is no longer configured.
    func start(button: String, redirectURI: String, kernel: Kernel) async throws -> ConsoleOpenIDStart?
    /// The browser is back with `query` (`code` and `state`, or `error`): a session in the school
    /// whose provider vouched for an existing account, nil for any refusal.
    func finish(kept: String, query: [String: String], redirectURI: String, kernel: Kernel, language: Language) async throws -> ConsoleSession?
}

public struct ConsoleOpenIDButton: Sendable {
    /// Opaque to the shell: what `start` is given back.
    public let id: String
    public let label: LocalizedText

    public init(id: String, label: LocalizedText) {
        self.id = id
        self.label = label
    }
}

public struct ConsoleOpenIDStart: Sendable {
    public let location: String
    /// Kept in an HttpOnly cookie for ten minutes and handed to `finish`.
    public let kept: String

    public init(location: String, kept: String) {
        self.location = location
        self.kept = kept
    }
}

/// `GET /sign-in/openid?provider=…` (a provider's button) and `GET /sign-in/openid/callback` (the provider
/// sends the browser back). Refusals are one sentence on the sign-in page, whatever the reason.
struct ConsoleOpenIDSignIn: Sendable {
    let shell: ConsoleShell

    static let cookie = "hogwarts_openid"
    static let callbackPath = "/sign-in/openid/callback"

    var openID: (any ConsoleOpenID)? { shell.identity?.openID }

    /// A link, not a form: the console's pages allow forms to post only to this site (CSP
    /// `form-action 'self'`), and browsers hold a form's redirect to another site to that too.
    func start(_ request: Request, _ context: APIContext) async throws -> Response {
        let call = try await ConsoleCall(request, context, alwaysSecure: shell.alwaysSecure)
        let localizer = Localizer(language: ConsoleSignIn.language(call), catalog: shell.catalog, surface: .web)
        if let wait = try await shell.server.signInLimiter.admit(call.address) {
            var response = try await ConsoleSignIn(shell: shell).render(call, status: 429, error: localizer("console.sign-in.too-many", ["seconds": String(wait)]))
            response.headers[.retryAfter] = String(wait)
            return response
        }
        let started = try? await openID?.start(button: call.query["provider"] ?? "", redirectURI: redirectURI(request, call), kernel: shell.kernel)
        guard let started else {
            return try await ConsoleSignIn(shell: shell).render(call, status: 400, error: localizer("console.sign-in.openid-refused"))
        }
        var headers = ConsoleShell.securityHeaders
        headers[.location] = started.location
        // Lax: the provider's redirect back is a top-level GET from another site, which must carry it.
        headers.append(HTTPField(name: .setCookie, value: ConsoleCookies.set(Self.cookie, started.kept, maxAge: 600, secure: call.secure, lax: true)))
        return Response(status: .seeOther, headers: headers)
    }

    func callback(_ request: Request, _ context: APIContext) async throws -> Response {
        let call = try await ConsoleCall(request, context, alwaysSecure: shell.alwaysSecure)
        let language = ConsoleSignIn.language(call)
        let localizer = Localizer(language: language, catalog: shell.catalog, surface: .web)
        let session: ConsoleSession?
        if let kept = call.cookies[Self.cookie], let openID {
            session = try? await openID.finish(kept: kept, query: call.query, redirectURI: redirectURI(request, call), kernel: shell.kernel, language: language)
        } else {
            session = nil
        }
        guard let session, let school = session.user.principal.schoolID else {
            shell.server.metrics.recordSignInFailure()
            var response = try await ConsoleSignIn(shell: shell).render(call, status: 401, error: localizer("console.sign-in.openid-refused"))
            response.headers.append(HTTPField(name: .setCookie, value: ConsoleCookies.clear(Self.cookie, secure: call.secure)))
            return response
        }
        // A page of our own that moves on to the dashboard, not a redirect: the browser came from
        // the provider's site, and along a redirect chain it started there a SameSite=Strict
        // session cookie would not be sent. The refresh is this site's own navigation.
        let document = ConsoleHTML(trusted: """
            <!DOCTYPE html><html lang="\(language.rawValue)" dir="\(language.isRightToLeft ? "rtl" : "ltr")"><head><meta charset="utf-8">
            <meta http-equiv="refresh" content="0;url=/"><title>\(ConsoleHTML.escape(localizer("console.sign-in.title")))</title></head>
            <body><main><p><a href="/">\(ConsoleHTML.escape(localizer("console.sign-in.openid-continue")))</a></p></main></body></html>
            """)
        return ConsoleShell.html(document, cookies: [
            ConsoleCookies.set(ConsoleCookies.session, "\(school).\(session.token)", maxAge: 24 * 3600, secure: call.secure),
            ConsoleCookies.clear(Self.cookie, secure: call.secure),
        ])
    }

    /// The providers' links for a page before sign-in (sign-in, invitation); empty HTML when
    /// none is configured or the list cannot be read (the password form stands alone).
    static func links(_ shell: ConsoleShell, language: Language, heading: String) async -> ConsoleHTML {
        guard let openID = shell.identity?.openID,
              let buttons = try? await shell.server.threadPool.runIfActive({ [kernel = shell.kernel] in try openID.buttons(kernel: kernel) }),
              !buttons.isEmpty else { return .text("") }
        let localizer = Localizer(language: language, catalog: shell.catalog, surface: .web)
        return ConsoleTemplates.providerLinks.render([
            "heading": heading,
            "providers": buttons.map { ["id": $0.id, "label": localizer("console.sign-in.openid-button", ["provider": $0.label.text(in: language)])] },
        ])
    }

    /// This site's callback as the browser reaches it (behind a TLS proxy: https).
    private func redirectURI(_ request: Request, _ call: ConsoleCall) -> String {
        // The provider accepts only redirect addresses registered with it, so a forged Host gets nowhere.
        let host = request.head.authority ?? "127.0.0.1"
        return "\(call.secure ? "https" : "http")://\(host)\(Self.callbackPath)"
    }
}
