import Foundation
import Hummingbird
import HogwartsBase
import HogwartsKernel
import HogwartsHTTP

/// The page an invitation's link opens: the invited email, and a new password to choose, through
/// the identity module's own actions (`ConsoleInvitations`). A link that is not live is told so
/// with 404, and the same words whatever was wrong with it.
struct ConsoleInvitationPage: Sendable {
    let shell: ConsoleShell

    func form(_ request: Request, _ context: APIContext) async throws -> Response {
        let call = try await ConsoleCall(request, context, alwaysSecure: shell.alwaysSecure)
        let token = call.query["token"] ?? ""
        guard let invitations = shell.identity?.invitations, !token.isEmpty, token.count <= 200 else {
            return try await render(call, status: 404, token: nil, email: nil, error: words(call)("console.invitation.invalid"))
        }
        let kernel = shell.kernel
        guard let email = try await shell.server.threadPool.runIfActive({ try invitations.email(invitedBy: token, kernel: kernel) }) else {
            return try await render(call, status: 404, token: nil, email: nil, error: words(call)("console.invitation.invalid"))
        }
        return try await render(call, status: 200, token: token, email: email)
    }

    func accept(_ request: Request, _ context: APIContext) async throws -> Response {
        let call = try await ConsoleCall(request, context, alwaysSecure: shell.alwaysSecure)
        let localizer = words(call)
        let token = call.form.value("token") ?? ""
        let password = call.form.value("password") ?? ""
        guard let expected = call.cookies[ConsoleCookies.signInCSRF], ConsoleCSRF.matches(call.form.value(ConsoleCSRF.field), expected) else {
            return try await render(call, status: 403, token: token, email: nil, error: localizer("console.error.csrf"))
        }
        guard let invitations = shell.identity?.invitations, !token.isEmpty, token.count <= 200 else {
            return try await render(call, status: 404, token: nil, email: nil, error: localizer("console.invitation.invalid"))
        }
        guard !password.isEmpty, password.count <= ConsoleSignIn.maximumPasswordLength else {
            return try await render(call, status: 400, token: token, email: nil, error: localizer("console.invitation.password-missing"))
        }
        let (kernel, language) = (shell.kernel, ConsoleSignIn.language(call))
        do {
            let accepted = try await ActionLanes.passwords.runIfActive {
                try invitations.accept(token: token, password: password, kernel: kernel, language: language)
            }
            guard accepted else { return try await render(call, status: 404, token: nil, email: nil, error: localizer("console.invitation.invalid")) }
        } catch let error as any HogwartsError {
            return try await render(call, status: 400, token: token, email: nil, error: localizer(error.messageKey, error.messageArguments))
        }
        return ConsoleShell.redirect("/sign-in?invitation-accepted=1", cookies: [ConsoleCookies.clear(ConsoleCookies.signInCSRF, secure: call.secure)])
    }

    private func words(_ call: ConsoleCall) -> Localizer {
        Localizer(language: ConsoleSignIn.language(call), catalog: shell.catalog, surface: .web)
    }

    private func render(_ call: ConsoleCall, status: Int, token: String?, email: String?, error: String? = nil) async throws -> Response {
        let language = ConsoleSignIn.language(call)
        let localizer = words(call)
        let csrf = call.cookies[ConsoleCookies.signInCSRF].flatMap { $0.count == 40 ? $0 : nil } ?? ConsoleCSRF.random()
        let other: Language = language == .ar ? .en : .ar
        let body = ConsoleTemplates.invitation.render([
            "csrf": csrf, "token": token ?? "", "live": token != nil,
            "intro": email.map { localizer("console.invitation.intro", ["email": $0]) } ?? "",
            "passwordLabel": localizer("console.reset.new-password"), "passwordHint": localizer("console.reset.password-hint"),
            "submit": localizer("console.invitation.submit"), "back": localizer("console.reset.back"),
            "providers": token == nil ? .text("") : await ConsoleOpenIDSignIn.links(shell, language: language, heading: localizer("console.invitation.openid-heading")),
        ])
        let document = ConsoleTemplates.layout.render([
            "lang": language.rawValue, "dir": language.isRightToLeft ? "rtl" : "ltr", "title": localizer("console.invitation.title"),
            "site": localizer("console.site"), "skip": localizer("console.skip"), "body": body, "notice": "", "error": error ?? "",
            "anonymous": ["csrf": csrf, "back": "/sign-in", "otherLang": other.rawValue, "otherLangLabel": localizer("console.language.\(other.rawValue)"),
                          "languageLabel": localizer("console.language.switch")],
        ])
        return ConsoleShell.html(document, status: status, cookies: [ConsoleCookies.set(ConsoleCookies.signInCSRF, csrf, maxAge: 3600, secure: call.secure)])
    }
}
