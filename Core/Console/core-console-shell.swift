import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import HogwartsBase
import HogwartsKernel
import HogwartsHTTP

/// The web console, served at `/` beside the API: server-rendered pages, a session cookie, a
/// CSRF token on every form. It knows no module by name: the menu, the pages and the dashboard
/// cards come from the modules that are on for the person's school.
struct ConsoleShell: Sendable {
    let server: APIServer
    /// Secure cookies even without `X-Forwarded-Proto: https` (`HOGWARTS_CONSOLE_SECURE=1`).
    let alwaysSecure: Bool
    let catalog: StringCatalog
    /// Who has another school, for the menu's "Switch school".
    let otherSchools = ConsoleOtherSchoolsCache()

    init(server: APIServer, alwaysSecure: Bool) {
        self.server = server
        self.alwaysSecure = alwaysSecure
        catalog = server.kernel.registry.catalog.merging(ConsoleStrings.catalog)
    }

    var kernel: Kernel { server.kernel }
    var identity: (any ConsoleIdentity)? { kernel.registry.modules.lazy.compactMap(\.contributedConsoleIdentity).first }

    func mount(on router: Router<APIContext>) {
        router.get("/") { request, context in try await signedIn(request, context) { try await ConsoleDashboard(shell: self).page($0) } }
        router.get("/sign-in") { request, context in try await ConsoleSignIn(shell: self).form(request, context) }
        router.post("/sign-in") { request, context in try await ConsoleSignIn(shell: self).submit(request, context) }
        router.post("/sign-in/school") { request, context in try await ConsoleSchoolChoicePage(shell: self).choose(request, context) }
        router.get("/switch-school") { request, context in
            try await signedIn(request, context) { try await ConsoleSwitchSchool(shell: self).page($0) }
        }
        router.get("/forgot-password") { request, context in try await ConsolePasswordResetPage(shell: self).form(request, context) }
        router.post("/forgot-password") { request, context in try await ConsolePasswordResetPage(shell: self).ask(request, context) }
        router.post("/forgot-password/new") { request, context in try await ConsolePasswordResetPage(shell: self).complete(request, context) }
        router.get("/invitation") { request, context in try await ConsoleInvitationPage(shell: self).form(request, context) }
        router.post("/invitation") { request, context in try await ConsoleInvitationPage(shell: self).accept(request, context) }
        router.get("/sign-in/openid") { request, context in try await ConsoleOpenIDSignIn(shell: self).start(request, context) }
        router.get("/sign-in/openid/callback") { request, context in try await ConsoleOpenIDSignIn(shell: self).callback(request, context) }
        router.post("/sign-out") { request, context in try await ConsoleSignIn(shell: self).signOut(request, context) }
        router.post("/language") { request, context in try await ConsoleSignIn(shell: self).language(request, context) }
        router.get("/admin/modules") { request, context in try await signedIn(request, context) { try await ConsoleModulesPage(shell: self).page($0) } }
        router.post("/admin/modules") { request, context in try await signedIn(request, context) { try await ConsoleModulesPage(shell: self).submit($0) } }
        router.get("/admin/settings") { request, context in try await signedIn(request, context) { try await ConsoleSettingsPage(shell: self).page($0) } }
        router.post("/admin/settings") { request, context in try await signedIn(request, context) { try await ConsoleSettingsPage(shell: self).submit($0) } }
        router.get("/admin/audit") { request, context in try await signedIn(request, context) { try await ConsoleAuditPage(shell: self).page($0) } }
        router.get("/m/:module/:page") { request, context in try await modulePage(request, context) }
        router.post("/m/:module/:page") { request, context in try await modulePage(request, context) }
        router.get("/live") { request, context in try await ConsoleLive(shell: self).stream(request, context) }
        router.get("/console.css") { _, _ in ConsoleAssets.response(ConsoleAssets.css, type: "text/css; charset=utf-8") }
        router.get("/console.js") { _, _ in ConsoleAssets.response(ConsoleAssets.script, type: "text/javascript; charset=utf-8") }
    }

    /// A module's page: only where the module is on for the school and the role holds the page's permission.
    private func modulePage(_ request: Request, _ context: APIContext) async throws -> Response {
        let moduleID = context.parameters.get("module") ?? ""
        let path = context.parameters.get("page") ?? ""
        return try await signedIn(request, context) { console in
            guard console.enabledModules.contains(moduleID),
                  let module = kernel.registry.modules.first(where: { $0.id == moduleID }),
                  let page = module.contributedConsolePages.first(where: { $0.path == path }) else {
                throw ConsoleProblem.notFound
            }
            guard console.may(open: page) else { throw ConsoleProblem.forbidden }
            return try await page.handler(console)
        }
    }

    /// Runs a page for the signed-in person; someone not signed in goes to the sign-in form, and a
    /// form without this session's CSRF token is refused before the page sees it.
    func signedIn(_ request: Request, _ context: APIContext, preread: ConsoleCall? = nil,
                  _ body: (ConsoleRequest) async throws -> ConsoleResponse) async throws -> Response {
        let call = if let preread { preread } else { try await ConsoleCall(request, context, alwaysSecure: alwaysSecure) }
        guard let (console, token) = try await session(for: call, context: context) else {
            if call.isPost { return try await ConsoleResume.signInAgain(self, call, request: request) }
            var response = Self.redirect(ConsoleForm.path("/sign-in", query: [("next", call.pathWithQuery)]))
            if call.cookies[ConsoleCookies.session] != nil {
                response.headers.append(HTTPField(name: .setCookie, value: ConsoleCookies.clear(ConsoleCookies.session, secure: call.secure)))
            }
            return response
        }
        if let problem = call.formProblem {
            return await layout(console, title: console.localizer("console.error.title"), body: .text(""), status: problem.status,
                                error: console.say(problem.message))
        }
        guard !call.isPost || ConsoleCSRF.matches(call.form.value(ConsoleCSRF.field), ConsoleCSRF.token(forSession: token)) else {
            return await layout(console, title: console.localizer("console.error.title"), body: .text(""), status: 403,
                          error: console.localizer("console.error.csrf"))
        }
        do {
            switch try await body(console) {
            case .page(let title, let html): return await layout(console, title: title, body: html)
            case .redirect(let target): return Self.redirect(target)
            }
        } catch {
            let status = (error as? ConsoleProblem)?.status ?? APIError.from(error).status
            let message = (error as? ConsoleProblem).map { console.localizer($0.messageKey) } ?? console.message(for: error)
            return await layout(console, title: console.localizer("console.error.title"), body: .text(""), status: status, error: message)
        }
    }

    /// The signed-in person of a request, with their school, language and modules; nil when the
    /// cookie is missing, malformed, expired or revoked.
    func session(for call: ConsoleCall, context: APIContext) async throws -> (ConsoleRequest, String)? {
        guard let identity, let (schoolID, token) = ConsoleCookies.sessionParts(call.cookies[ConsoleCookies.session]) else { return nil }
        let found = try? await server.threadPool.runIfActive { [kernel] () -> (ConsoleUser, School, Set<ModuleID>)? in
            guard let user = try identity.resolve(token: token, school: schoolID, kernel: kernel) else { return nil }
            return (user, try kernel.school(schoolID), try kernel.enabledModules(for: schoolID))
        }
        guard let (user, school, enabled) = found ?? nil else { return nil }
        context.facts.schoolID = school.id
        let console = ConsoleRequest(
            kernel: kernel, principal: user.principal, school: school, language: user.language, path: call.path, isPost: call.isPost,
            query: call.query, form: call.form, uploads: call.uploads, enabledModules: enabled, csrfToken: ConsoleCSRF.token(forSession: token),
            catalog: catalog, threadPool: server.threadPool, metrics: server.metrics)
        return (console, token)
    }

    /// A page inside the layout: the menu of what this person may open, the language switch and sign-out.
    func layout(_ console: ConsoleRequest, title: String, body: ConsoleHTML, status: Int = 200, notice: String? = nil, error: String? = nil) async -> Response {
        let html = await ConsoleLayout(shell: self).document(console, title: title, body: body, notice: notice, error: error)
        return Self.html(html, status: status)
    }

    static func html(_ html: ConsoleHTML, status: Int = 200, cookies: [String] = []) -> Response {
        var headers = securityHeaders
        headers[.contentType] = "text/html; charset=utf-8"
        for cookie in cookies { headers.append(HTTPField(name: .setCookie, value: cookie)) }
        return Response(status: .init(code: status), headers: headers, body: .init(byteBuffer: ByteBuffer(string: html.html)))
    }

    /// 303 See Other: after a form, the browser loads the target with GET.
    static func redirect(_ target: String, cookies: [String] = []) -> Response {
        var headers = securityHeaders
        headers[.location] = safeTarget(target)
        for cookie in cookies { headers.append(HTTPField(name: .setCookie, value: cookie)) }
        return Response(status: .seeOther, headers: headers)
    }

    /// Only a path on this site: `//evil.example` or `https://...` becomes `/`.
    static func safeTarget(_ target: String) -> String {
        guard target.hasPrefix("/"), !target.hasPrefix("//"), !target.hasPrefix("/\\"),
              !target.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) else { return "/" }
        return target
    }

    /// No other site may frame, script or cache these pages.
    static var securityHeaders: HTTPFields {
        var headers = HTTPFields()
        headers[.cacheControl] = "no-store"
        headers[.contentSecurityPolicy] = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'"
        headers[.xContentTypeOptions] = "nosniff"
        if let name = HTTPField.Name("Referrer-Policy") { headers[name] = "same-origin" }
        if let name = HTTPField.Name("X-Frame-Options") { headers[name] = "DENY" }
        return headers
    }
}

/// A refusal of the shell itself (a page that is not there or not for this role).
enum ConsoleProblem: Error {
    case notFound
    case forbidden

    var status: Int { self == .notFound ? 404 : 403 }
    var messageKey: String { self == .notFound ? "console.error.not-found" : "console.error.forbidden" }
}

/// One request as the shell reads it: cookies, query, the form of a POST, and whether it came over TLS.
struct ConsoleCall {
    let path: String
    let pathWithQuery: String
    let isPost: Bool
    let cookies: [String: String]
    let query: [String: String]
    let form: ConsoleForm
    /// Files of a multipart form, and why such a form was refused (nil when it was not).
    let uploads: [ConsoleUpload]
    let formProblem: ConsoleMultipart.Failure?
    let secure: Bool
    let address: String

    init(_ request: Request, _ context: APIContext, alwaysSecure: Bool) async throws {
        path = request.uri.path
        pathWithQuery = request.uri.query.map { "\(request.uri.path)?\($0)" } ?? request.uri.path
        isPost = request.method == .post
        cookies = ConsoleCookies.parse(request.headers[.cookie])
        var query: [String: String] = [:]
        for (name, value) in request.uri.queryParameters where query[String(name)] == nil { query[String(name)] = String(value) }
        self.query = query
        var uploads: [ConsoleUpload] = []
        var formProblem: ConsoleMultipart.Failure?
        if isPost, let type = request.headers[.contentType], ConsoleMultipart.isMultipart(type) {
            // A file upload: read strictly and within its own limit; what is wrong is said on a page.
            var request = request
            do {
                let body = try await request.collectBody(upTo: ConsoleMultipart.maximumBodySize)
                let parsed = try ConsoleMultipart.parse(Array(buffer: body), contentType: type)
                form = ConsoleForm(pairs: parsed.fields)
                uploads = parsed.uploads
            } catch let failure as ConsoleMultipart.Failure {
                form = ConsoleForm(pairs: [])
                formProblem = failure
            } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
                form = ConsoleForm(pairs: [])
                formProblem = .bodyTooLarge
            }
        } else if isPost {
            var request = request
            let body = try await request.collectBody(upTo: APIServer.maximumBodySize)
            form = ConsoleForm(encoded: String(buffer: body))
        } else {
            form = ConsoleForm(pairs: [])
        }
        self.uploads = uploads
        self.formProblem = formProblem
        let proto = request.headers[HTTPField.Name("X-Forwarded-Proto") ?? .via]?.lowercased()
        secure = alwaysSecure || proto == "https"
        address = context.clientAddress(of: request)
    }
}

/// The web console at `/`, beside the API: its pages come from the modules.
public struct ConsoleServerExtension: ServerExtension {
    public init() {}

    public func mount(on router: Router<APIContext>, server: APIServer) {
        ConsoleShell(server: server, alwaysSecure: APIServer.consoleAlwaysSecure(ProcessInfo.processInfo.environment)).mount(on: router)
    }
}
