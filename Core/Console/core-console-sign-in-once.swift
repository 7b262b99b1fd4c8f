import Foundation
import HTTPTypes
import Hummingbird
import HogwartsKernel
import HogwartsHTTP

/// One password for an email with accounts in several schools. The password is checked in each
/// of them (side by side on the password lane, each counted, locked out and audited as a sign-in
/// there); right in none, the one refusal of any wrong password; right in one, signed in there;
/// right in several, the picker of just those schools, which sends a signed single-use ticket
/// (`ConsoleSchoolTicket`) instead of the password. Which schools an email is in is shown only
/// to someone who typed its password.
struct ConsoleSchoolChoicePage: Sendable {
    let shell: ConsoleShell

    /// The most schools one password is checked in: a bcrypt each. An email in more (rare) is
    /// offered the first ones here, and reaches the others through "Switch school".
    static let mostSchoolsChecked = 5

    /// Step 1, from the sign-in form (its limit, CSRF token and fields already checked).
    func signIn(_ call: ConsoleCall, email: String, password: String, schools: [School], choice: any ConsoleSchoolChoice) async throws -> Response {
        let kernel = shell.kernel
        let language = ConsoleSignIn.language(call)
        let localizer = Localizer(language: language, catalog: shell.catalog, surface: .web)
        let candidates = Array(schools.prefix(Self.mostSchoolsChecked))
        let proofs = await withTaskGroup(of: (Int, String?).self) { group in
            for (index, school) in candidates.enumerated() {
                let id = school.id
                group.addTask {
                    // A school whose check fails (its accounts module just switched off) is not offered.
                    let proof = try? await ActionLanes.passwords.runIfActive {
                        try choice.checkPassword(email: email, password: password, school: id, kernel: kernel, language: language)
                    }
                    return (index, proof)
                }
            }
            var right: [(index: Int, proof: String)] = []
            for await (index, proof) in group {
                if let proof { right.append((index, proof)) }
            }
            return right.sorted { $0.index < $1.index }.map { (school: candidates[$0.index], proof: $0.proof) }
        }
        let sign = ConsoleSignIn(shell: shell)
        guard let first = proofs.first else {
            shell.server.metrics.recordSignInFailure()
            return try await sign.render(call, status: 401, error: localizer("console.sign-in.refused"), email: email)
        }
        if proofs.count == 1 {
            let session = try await ActionLanes.writes.runIfActive {
                try choice.signIn(email: email, proof: first.proof, school: first.school.id, kernel: kernel, language: language)
            }
            guard let session else {
                shell.server.metrics.recordSignInFailure()
                return try await sign.render(call, status: 401, error: localizer("console.sign-in.refused"), email: email)
            }
            return try await sign.signedIn(call, session)
        }
        // The form's CSRF cookie, checked by the caller: the ticket opens only beside it.
        let binding = call.cookies[ConsoleCookies.signInCSRF] ?? ""
        let offered = proofs.map { (id: $0.school.id, proof: $0.proof) }
        let ticket = try await shell.server.threadPool.runIfActive {
            try ConsoleSchoolTicket.issue(email: email, schools: offered, binding: binding, kernel: kernel)
        }
        return try await sign.render(call, status: 200, notice: localizer("console.sign-in.choose-school-once"),
                                     choice: (ticket: ticket, schools: proofs.map(\.school)))
    }

    /// Step 2: the school chosen, with the ticket. A forged, expired, reused or other browser's
    /// ticket, or a school it does not name, gets the sign-in page with one sentence and no session.
    func choose(_ request: Request, _ context: APIContext) async throws -> Response {
        let call = try await ConsoleCall(request, context, alwaysSecure: shell.alwaysSecure)
        let language = ConsoleSignIn.language(call)
        let localizer = Localizer(language: language, catalog: shell.catalog, surface: .web)
        let sign = ConsoleSignIn(shell: shell)
        if let wait = try await shell.server.signInLimiter.admit(call.address) {
            var response = try await sign.render(call, status: 429, error: localizer("console.sign-in.too-many", ["seconds": String(wait)]))
            response.headers[.retryAfter] = String(wait)
            return response
        }
        guard let binding = call.cookies[ConsoleCookies.signInCSRF], ConsoleCSRF.matches(call.form.value(ConsoleCSRF.field), binding) else {
            return try await sign.render(call, status: 403, error: localizer("console.error.csrf"))
        }
        guard let choice = shell.identity?.schoolChoice else {
            return try await sign.render(call, status: 503, error: localizer("console.sign-in.unavailable"))
        }
        let kernel = shell.kernel
        let text = call.form.value(ConsoleSchoolTicket.field) ?? ""
        let chosen = call.form.value("school") ?? ""
        let opened = try await ActionLanes.writes.runIfActive { () -> (email: String, proof: String)? in
            guard let ticket = try ConsoleSchoolTicket.open(text, binding: binding, kernel: kernel),
                  let proof = ticket.schools.first(where: { $0.id == chosen })?.proof,
                  try ticket.spend(kernel: kernel) else {
                try kernel.recordAudit(action: "console.sign-in", principal: .anonymous, school: nil, outcome: .failed,
                                       detail: "refused (school choice: ticket forged, expired, used or from another browser)")
                return nil
            }
            return (ticket.email, proof)
        }
        guard let opened else {
            shell.server.metrics.recordSignInFailure()
            return try await sign.render(call, status: 400, error: localizer("console.sign-in.ticket-refused"))
        }
        let session = try await ActionLanes.writes.runIfActive {
            try choice.signIn(email: opened.email, proof: opened.proof, school: chosen, kernel: kernel, language: language)
        }
        guard let session else {
            shell.server.metrics.recordSignInFailure()
            return try await sign.render(call, status: 401, error: localizer("console.sign-in.refused"), email: opened.email)
        }
        return try await sign.signedIn(call, session)
    }
}
