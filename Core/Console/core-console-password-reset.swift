import Foundation
import Hummingbird
import HogwartsBase
import HogwartsKernel
import HogwartsHTTP

/// "Forgot your password?": the email first, then the emailed code with the new password, through
/// the identity module's own reset (`ConsolePasswordReset`), with the same limits as the API.
/// The first step answers the same words at once whatever the email; the mail follows.
struct ConsolePasswordResetPage: Sendable {
    let shell: ConsoleShell

    func form(_ request: Request, _ context: APIContext) async throws -> Response {
        let call = try await ConsoleCall(request, context, alwaysSecure: shell.alwaysSecure)
        guard shell.identity?.passwordReset != nil else { return try await render(call, status: 404, step: .email, error: words(call)("console.reset.unavailable")) }
        return try await render(call, status: 200, step: .email)
    }

    /// Step 1: the email. The code is mailed after the answer has been written.
    func ask(_ request: Request, _ context: APIContext) async throws -> Response {
        let call = try await ConsoleCall(request, context, alwaysSecure: shell.alwaysSecure)
        let localizer = words(call)
        if let refusal = try await refusal(call, step: .email) { return refusal }
        let email = (call.form.value("email") ?? "").trimmingCharacters(in: .whitespaces)
        guard !email.isEmpty, email.count <= 320, let reset = shell.identity?.passwordReset else {
            return try await render(call, status: 400, step: .email, error: localizer("console.reset.email-missing"))
        }
        let kernel = shell.kernel
        Task {
            do {
                try await ActionLanes.passwords.runIfActive { try reset.mailCode(to: email, kernel: kernel) }
            } catch {
                kernel.reportBackgroundFailure("password reset mail", error)
            }
        }
        return try await render(call, status: 200, step: .code, notice: localizer("console.reset.sent"), email: email)
    }

    /// Step 2: the code and the new password; on success, back to the sign-in page.
    func complete(_ request: Request, _ context: APIContext) async throws -> Response {
        let call = try await ConsoleCall(request, context, alwaysSecure: shell.alwaysSecure)
        let localizer = words(call)
        if let refusal = try await refusal(call, step: .code) { return refusal }
        let email = (call.form.value("email") ?? "").trimmingCharacters(in: .whitespaces)
        let code = (call.form.value("code") ?? "").trimmingCharacters(in: .whitespaces)
        let password = call.form.value("password") ?? ""
        guard !email.isEmpty, email.count <= 320, code.count == 6, code.allSatisfy(\.isASCII), code.allSatisfy(\.isNumber),
              !password.isEmpty, password.count <= ConsoleSignIn.maximumPasswordLength, let reset = shell.identity?.passwordReset else {
            return try await render(call, status: 400, step: .code, error: localizer("console.reset.code-missing"), email: email)
        }
        let (kernel, language) = (shell.kernel, ConsoleSignIn.language(call))
        do {
            let changed = try await ActionLanes.passwords.runIfActive {
                try reset.complete(email: email, code: code, newPassword: password, kernel: kernel, language: language)
            }
            guard changed else { return try await render(call, status: 401, step: .code, error: localizer("console.reset.code-refused"), email: email) }
        } catch let error as any HogwartsError {
            return try await render(call, status: 400, step: .code, error: localizer(error.messageKey, error.messageArguments), email: email)
        }
        return ConsoleShell.redirect("/sign-in?password-changed=1", cookies: [ConsoleCookies.clear(ConsoleCookies.signInCSRF, secure: call.secure)])
    }

    /// The form's CSRF token, then the client address's limit.
    private func refusal(_ call: ConsoleCall, step: Step) async throws -> Response? {
        let localizer = words(call)
        guard let expected = call.cookies[ConsoleCookies.signInCSRF], ConsoleCSRF.matches(call.form.value(ConsoleCSRF.field), expected) else {
            return try await render(call, status: 403, step: step, error: localizer("console.error.csrf"))
        }
        guard let reset = shell.identity?.passwordReset else {
            return try await render(call, status: 404, step: .email, error: localizer("console.reset.unavailable"))
        }
        let (kernel, address) = (shell.kernel, call.address)
        if let wait = try await ActionLanes.writes.runIfActive({ try reset.admit(address: address, kernel: kernel) }) {
            var response = try await render(call, status: 429, step: step, error: localizer("console.reset.too-many", ["seconds": String(wait)]),
                                            email: call.form.value("email"))
            response.headers[.retryAfter] = String(wait)
            return response
        }
        return nil
    }

    enum Step { case email, code }

    private func words(_ call: ConsoleCall) -> Localizer {
        Localizer(language: ConsoleSignIn.language(call), catalog: shell.catalog, surface: .web)
    }

    private func render(_ call: ConsoleCall, status: Int, step: Step, notice: String? = nil, error: String? = nil, email: String? = nil) async throws -> Response {
        let language = ConsoleSignIn.language(call)
        let localizer = words(call)
        let csrf = call.cookies[ConsoleCookies.signInCSRF].flatMap { $0.count == 40 ? $0 : nil } ?? ConsoleCSRF.random()
        let other: Language = language == .ar ? .en : .ar
        let template = step == .email ? ConsoleTemplates.forgotPassword : ConsoleTemplates.newPassword
        let body = template.render([
            "csrf": csrf, "email": email ?? "", "intro": localizer(step == .email ? "console.reset.intro" : "console.reset.code-intro"),
            "emailLabel": localizer("console.sign-in.email"), "codeLabel": localizer("console.reset.code"),
            "passwordLabel": localizer("console.reset.new-password"), "passwordHint": localizer("console.reset.password-hint"),
            "submit": localizer(step == .email ? "console.reset.send" : "console.reset.change"),
            "again": localizer("console.reset.again"), "back": localizer("console.reset.back"),
        ])
        let document = ConsoleTemplates.layout.render([
            "lang": language.rawValue, "dir": language.isRightToLeft ? "rtl" : "ltr", "title": localizer("console.reset.title"),
            "site": localizer("console.site"), "skip": localizer("console.skip"), "body": body,
            "notice": notice ?? "", "error": error ?? "",
            "anonymous": ["csrf": csrf, "back": "/forgot-password", "otherLang": other.rawValue, "otherLangLabel": localizer("console.language.\(other.rawValue)"),
                          "languageLabel": localizer("console.language.switch")],
        ])
        return ConsoleShell.html(document, status: status, cookies: [ConsoleCookies.set(ConsoleCookies.signInCSRF, csrf, maxAge: 3600, secure: call.secure)])
    }
}
