import Foundation
import HTTPTypes
import Hummingbird
import HogwartsBase
import HogwartsKernel
import HogwartsHTTP

/// Signing in and out, and the language switch. Signing in goes through the identity module's
/// own actions (`ConsoleIdentity`): the same lockout, single refusal and audit as the CLI and the
/// API, plus the API's per-address limit.
struct ConsoleSignIn: Sendable {
    let shell: ConsoleShell

    /// The most a password may be: bcrypt reads 72 bytes, this only stops absurd forms.
    static let maximumPasswordLength = 1_000

    func form(_ request: Request, _ context: APIContext) async throws -> Response {
        let call = try await ConsoleCall(request, context, alwaysSecure: shell.alwaysSecure)
        if let identity = shell.identity, let (school, token) = ConsoleCookies.sessionParts(call.cookies[ConsoleCookies.session]),
           let user = (try? await shell.server.threadPool.runIfActive { [kernel = shell.kernel] in try identity.resolve(token: token, school: school, kernel: kernel) }) ?? nil {
            // "Switch school": the other school's sign-in, the email filled in and the school fixed.
            if let wanted = call.query["school"], let switching = (try? await ConsoleSwitchSchool(shell: shell).target(wanted, for: user.principal)) ?? nil {
                return try await render(call, status: 200, email: switching.email, fixedSchool: switching.school)
            }
            return ConsoleShell.redirect("/")
        }
        return try await render(call, status: 200)
    }

    func submit(_ request: Request, _ context: APIContext) async throws -> Response {
        let call = try await ConsoleCall(request, context, alwaysSecure: shell.alwaysSecure)
        let localizer = Localizer(language: Self.language(call), catalog: shell.catalog, surface: .web)
        if let wait = try await shell.server.signInLimiter.admit(call.address) {
            var response = try await render(call, status: 429, error: localizer("console.sign-in.too-many", ["seconds": String(wait)]))
            response.headers[.retryAfter] = String(wait)
            return response
        }
        guard let expected = call.cookies[ConsoleCookies.signInCSRF], ConsoleCSRF.matches(call.form.value(ConsoleCSRF.field), expected) else {
            return try await render(call, status: 403, error: localizer("console.error.csrf"))
        }
        let email = (call.form.value("email") ?? "").trimmingCharacters(in: .whitespaces)
        let password = call.form.value("password") ?? ""
        guard !email.isEmpty, email.count <= 320, !password.isEmpty, password.count <= Self.maximumPasswordLength else {
            return try await render(call, status: 400, error: localizer("console.sign-in.missing"))
        }
        guard let identity = shell.identity else {
            return try await render(call, status: 503, error: localizer("console.sign-in.unavailable"))
        }
        let kernel = shell.kernel
        let language = Self.language(call)
        let chosen = call.form.value("school").flatMap { $0.isEmpty ? nil : $0 }
        let found = try await shell.server.threadPool.runIfActive { try identity.schools(forEmail: email, kernel: kernel) }
        if chosen == nil, found.count > 1, let choice = identity.schoolChoice {
            return try await ConsoleSchoolChoicePage(shell: shell).signIn(call, email: email, password: password, schools: found, choice: choice)
        }
        let target: (school: SchoolID?, choices: [School], fixed: School?) = try await shell.server.threadPool.runIfActive {
            if let chosen {
                // The school the form names stays named after a refusal, whether or not the email is there.
                let fixed = try? kernel.school(chosen)
                let fallback = try kernel.schools().first?.id
                return (found.first { $0.id == chosen }?.id ?? fallback, [], fixed)
            }
            if found.count > 1 { return (nil, found, nil) }
            // An unknown email is refused in the first school, after the same password check.
            let first = try kernel.schools().first
            return ((found.first ?? first)?.id, [], nil)
        }
        if !target.choices.isEmpty {
            return try await render(call, status: 200, notice: localizer("console.sign-in.choose-school"), schools: target.choices, email: email)
        }
        // The password check on the password lane, as the API's sign-in: bcrypt never holds the reads' threads.
        let session = try await ActionLanes.passwords.runIfActive { () -> ConsoleSession? in
            guard let school = target.school else {
                try kernel.recordAudit(action: "console.sign-in", principal: .anonymous, school: nil, outcome: .failed,
                                       detail: "refused (no school): \(TextInput.printable(email))")
                return nil
            }
            return try identity.signIn(email: email, password: password, school: school, kernel: kernel, language: language)
        }
        guard let session else {
            shell.server.metrics.recordSignInFailure()
            return try await render(call, status: 401, error: localizer("console.sign-in.refused"), email: email, fixedSchool: target.fixed)
        }
        return try await signedIn(call, session)
    }

    /// A session opened: its cookie (replacing this browser's session of another school, which
    /// ends), then the form carried over the sign-in or the page asked for.
    func signedIn(_ call: ConsoleCall, _ session: ConsoleSession) async throws -> Response {
        guard let school = session.user.principal.schoolID else {
            shell.server.metrics.recordSignInFailure()
            let localizer = Localizer(language: Self.language(call), catalog: shell.catalog, surface: .web)
            return try await render(call, status: 401, error: localizer("console.sign-in.refused"))
        }
        // "Switch school": the cookie of the school left is replaced, so its session ends too
        // rather than stay valid for a day with no browser holding it.
        if let identity = shell.identity, let (left, token) = ConsoleCookies.sessionParts(call.cookies[ConsoleCookies.session]),
           token != session.token {
            try? await ActionLanes.writes.runIfActive { [kernel = shell.kernel] in try identity.signOut(token: token, school: left, kernel: kernel) }
        }
        let cookies = [
            ConsoleCookies.set(ConsoleCookies.session, "\(school).\(session.token)", maxAge: 24 * 3600, secure: call.secure),
            ConsoleCookies.clear(ConsoleCookies.signInCSRF, secure: call.secure),
            // The person's language, so a page shown before the next sign-in (a session that ended) speaks it too.
            ConsoleCookies.set(ConsoleCookies.language, session.user.language.rawValue, maxAge: 365 * 24 * 3600, secure: call.secure),
        ]
        if let carried = ConsoleResume.carried(in: call.form) {
            return ConsoleResume.resend(carried, token: session.token, language: session.user.language, shell: shell, cookies: cookies)
        }
        let next = call.form.value("next").map(ConsoleShell.safeTarget) ?? "/"
        return ConsoleShell.redirect(next == "/sign-in" ? "/" : next, cookies: cookies)
    }

    func signOut(_ request: Request, _ context: APIContext) async throws -> Response {
        var response = try await shell.signedIn(request, context) { console in
            let secret = ConsoleCookies.sessionParts(ConsoleCookies.parse(request.headers[.cookie])[ConsoleCookies.session])?.token ?? ""
            if let identity = shell.identity {
                let school = console.school.id
                try await console.offload(on: .writes) { kernel in try identity.signOut(token: secret, school: school, kernel: kernel) }
            }
            return .redirect("/sign-in?signed-out=1")
        }
        let secure = shell.alwaysSecure || request.headers[HTTPField.Name("X-Forwarded-Proto") ?? .via]?.lowercased() == "https"
        response.headers.append(HTTPField(name: .setCookie, value: ConsoleCookies.clear(ConsoleCookies.session, secure: secure)))
        return response
    }

    /// The language switch: kept in the profile of a signed-in person, in a cookie before sign-in.
    func language(_ request: Request, _ context: APIContext) async throws -> Response {
        let call = try await ConsoleCall(request, context, alwaysSecure: shell.alwaysSecure)
        let chosen = Language(rawValue: call.form.value("lang") ?? "") ?? .default
        let back = ConsoleShell.safeTarget(call.form.value("back") ?? "/")
        if call.cookies[ConsoleCookies.session] == nil {
            guard let expected = call.cookies[ConsoleCookies.signInCSRF], ConsoleCSRF.matches(call.form.value(ConsoleCSRF.field), expected) else {
                return try await render(call, status: 403, error: Localizer(language: chosen, catalog: shell.catalog, surface: .web)("console.error.csrf"))
            }
            return ConsoleShell.redirect(back, cookies: [ConsoleCookies.set(ConsoleCookies.language, chosen.rawValue, maxAge: 365 * 24 * 3600, secure: call.secure)])
        }
        var response = try await shell.signedIn(request, context, preread: call) { console in
            if let identity = shell.identity {
                let principal = console.principal
                try await console.offload(on: .writes) { kernel in try identity.setLanguage(chosen, for: principal, kernel: kernel) }
            }
            return .redirect(back)
        }
        response.headers.append(HTTPField(name: .setCookie, value: ConsoleCookies.set(ConsoleCookies.language, chosen.rawValue, maxAge: 365 * 24 * 3600, secure: call.secure)))
        return response
    }

    /// Before sign-in: the language cookie, else Arabic.
    static func language(_ call: ConsoleCall) -> Language {
        call.cookies[ConsoleCookies.language].flatMap(Language.init(rawValue:)) ?? .default
    }

    /// The sign-in page. `fixedSchool`: another school's sign-in ("Switch school"), the school
    /// named and sent with the form. `choice`: the schools where the password was right, and the
    /// ticket the picker sends instead of the password.
    func render(_ call: ConsoleCall, status: Int, notice: String? = nil, error: String? = nil, schools: [School] = [],
                email: String? = nil, resume: ConsoleResume.Carried? = nil, next: String? = nil, fixedSchool: School? = nil,
                choice: (ticket: String, schools: [School])? = nil) async throws -> Response {
        let resume = resume ?? ConsoleResume.carried(in: call.form)
        let language = Self.language(call)
        let localizer = Localizer(language: language, catalog: shell.catalog, surface: .web)
        let csrf = call.cookies[ConsoleCookies.signInCSRF].flatMap { $0.count == 40 ? $0 : nil } ?? ConsoleCSRF.random()
        let other: Language = language == .ar ? .en : .ar
        let signedOut = call.query["signed-out"] != nil
        let passwordChanged = call.query["password-changed"] != nil
        let invitationAccepted = call.query["invitation-accepted"] != nil
        let next = next ?? call.query["next"] ?? call.form.value("next") ?? "/"
        let resumeFields = resume.map { ConsoleResume.hiddenFields.render(["target": $0.target, "form": $0.form]).html } ?? ""
        let body: ConsoleHTML
        if let choice {
            body = ConsoleTemplates.schoolPicker.render([
                "csrf": csrf, "next": next, "resume": resumeFields, "ticket": choice.ticket,
                "schoolLabel": localizer("console.sign-in.school"), "submit": localizer("console.sign-in.continue"),
                "schools": choice.schools.map { ["id": $0.id, "name": $0.name.text(in: language)] },
                "other": localizer("console.sign-in.other-account"),
            ])
        } else {
            let providers = await ConsoleOpenIDSignIn.links(shell, language: language, heading: localizer("console.sign-in.openid-heading"))
            body = ConsoleTemplates.signIn.render([
                "csrf": csrf, "email": email ?? "", "next": next, "resume": resumeFields,
                "emailLabel": localizer("console.sign-in.email"), "passwordLabel": localizer("console.sign-in.password"),
                "schoolLabel": localizer("console.sign-in.school"), "submit": localizer("console.sign-in.submit"),
                "schools": schools.map { ["id": $0.id, "name": $0.name.text(in: language)] }, "hasSchools": !schools.isEmpty && fixedSchool == nil,
                "fixedSchool": fixedSchool.map { [["id": $0.id, "label": localizer("console.sign-in.fixed-school", ["school": $0.name.text(in: language)])]] } ?? [],
                "focusPassword": !(email ?? "").isEmpty,
                "hint": localizer("console.sign-in.hint"),
                "forgot": shell.identity?.passwordReset == nil ? "" : localizer("console.sign-in.forgot"),
                "providers": fixedSchool == nil ? providers.html : "",
            ])
        }
        let document = ConsoleTemplates.layout.render([
            "lang": language.rawValue, "dir": language.isRightToLeft ? "rtl" : "ltr", "title": localizer("console.sign-in.title"),
            "site": localizer("console.site"), "skip": localizer("console.skip"), "body": body,
            "notice": notice ?? (signedOut ? localizer("console.sign-in.signed-out") : passwordChanged ? localizer("console.sign-in.password-changed")
                : invitationAccepted ? localizer("console.sign-in.invitation-accepted") : ""),
            "error": error ?? "",
            "anonymous": ["csrf": csrf, "back": "/sign-in", "otherLang": other.rawValue, "otherLangLabel": localizer("console.language.\(other.rawValue)"),
                          "languageLabel": localizer("console.language.switch")],
        ])
        return ConsoleShell.html(document, status: status, cookies: [ConsoleCookies.set(ConsoleCookies.signInCSRF, csrf, maxAge: 3600, secure: call.secure)])
    }
}
