import Foundation
import HTTPTypes
import Hummingbird
import HogwartsKernel

/// A form sent after the session ended (a register of 24 marks saved an hour after signing in)
/// is not thrown away: the sign-in page says why it is there, in the person's language, and
/// carries the form forward in two hidden fields; once signed in again, a page re-sends it to
/// where it was going with the new session's CSRF token (by script at once, else with one
/// button). Only a form this site's own page sent is carried (the browser's `Sec-Fetch-Site` or
/// `Origin`), so another site cannot have its form sent in someone's name by making them sign in.
struct ConsoleResume: Sendable {
    /// Where the form was going and its fields (without the old CSRF token), form-encoded.
    struct Carried: Sendable, Equatable {
        let target: String
        let form: String
    }

    static let targetField = "resume-to"
    static let formField = "resume-form"

    /// Never carried: signing out, switching language and signing in are not work to keep.
    static let notCarried: Set<String> = ["/sign-in", "/sign-out", "/language"]

    /// What a POST without a live session carries forward; nil for another site's form or a target not worth keeping.
    static func carried(_ call: ConsoleCall, request: Request) -> Carried? {
        guard call.isPost, !notCarried.contains(call.path), ConsoleShell.safeTarget(call.pathWithQuery) == call.pathWithQuery,
              fromThisSite(request) else { return nil }
        let pairs = call.form.pairs.filter { $0.0 != ConsoleCSRF.field && $0.0 != targetField && $0.0 != formField }
        return Carried(target: call.pathWithQuery, form: encode(pairs))
    }

    /// The carried form as the sign-in form sent it back (after a wrong password too), nil when absent or not a path here.
    static func carried(in form: ConsoleForm) -> Carried? {
        guard let target = form.value(targetField), let fields = form.value(formField),
              ConsoleShell.safeTarget(target) == target, !notCarried.contains(String(target.prefix { $0 != "?" })) else { return nil }
        return Carried(target: target, form: fields)
    }

    /// The browser says the form came from a page of this site: `Sec-Fetch-Site: same-origin`,
    /// else an `Origin` naming the host the request was sent to (or the proxy's forwarded host).
    static func fromThisSite(_ request: Request) -> Bool {
        let headers = request.headers
        if let site = HTTPField.Name("Sec-Fetch-Site").flatMap({ headers[$0] }) { return site == "same-origin" }
        guard let origin = HTTPField.Name("Origin").flatMap({ headers[$0] }), let url = URL(string: origin), let host = url.host else { return false }
        let authority = url.port.map { "\(host):\($0)" } ?? host
        let forwarded = HTTPField.Name("X-Forwarded-Host").flatMap { headers[$0] }
        return authority == request.head.authority || authority == forwarded
    }

    /// The sign-in page for a POST whose session ended: the reason in the person's language, the form carried.
    static func signInAgain(_ shell: ConsoleShell, _ call: ConsoleCall, request: Request) async throws -> Response {
        let language = ConsoleSignIn.language(call)
        let carried = carried(call, request: request)
        let notice = (carried == nil ? Words.ended : Words.endedKept).text(in: language)
        var response = try await ConsoleSignIn(shell: shell).render(call, status: 401, notice: notice, resume: carried, next: "/")
        if call.cookies[ConsoleCookies.session] != nil {
            response.headers.append(HTTPField(name: .setCookie, value: ConsoleCookies.clear(ConsoleCookies.session, secure: call.secure)))
        }
        return response
    }

    /// After signing in again: the carried form, re-sent with the new session's token.
    static func resend(_ carried: Carried, token: String, language: Language, shell: ConsoleShell, cookies: [String]) -> Response {
        let fields = ConsoleForm(encoded: carried.form).pairs.map { ["name": $0.0, "value": $0.1] }
        let body = template.render([
            "target": carried.target, "csrf": ConsoleCSRF.token(forSession: token), "fields": fields,
            "intro": Words.sending.text(in: language), "send": Words.send.text(in: language),
        ])
        let localizer = Localizer(language: language, catalog: shell.catalog, surface: .web)
        let document = ConsoleTemplates.layout.render([
            "lang": language.rawValue, "dir": language.isRightToLeft ? "rtl" : "ltr", "title": Words.title.text(in: language),
            "site": localizer("console.site"), "skip": localizer("console.skip"), "body": body, "notice": "", "error": "",
        ])
        return ConsoleShell.html(document, status: 200, cookies: cookies)
    }

    static func encode(_ pairs: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return pairs.map { "\($0.0.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }
            .joined(separator: "&")
    }

    /// The hidden fields the sign-in form carries.
    static let hiddenFields = ConsoleTemplate("""
        <input type="hidden" name="resume-to" value="{{target}}"><input type="hidden" name="resume-form" value="{{form}}">
        """)

    static let template = ConsoleTemplate("""
        <form method="post" action="{{target}}" class="panel narrow" data-auto-submit data-submit-once>
        <input type="hidden" name="_csrf" value="{{csrf}}">
        {{#fields}}<input type="hidden" name="{{name}}" value="{{value}}">{{/fields}}
        <p role="status">{{intro}}</p>
        <p><button type="submit" class="primary">{{send}}</button></p>
        </form>
        """)

    enum Words {
        static let ended = LocalizedText(ar: "انتهت جلستك. سجّل الدخول مرة أخرى.", en: "Your session ended. Sign in again.")
        static let endedKept = LocalizedText(ar: "انتهت جلستك. سجّل الدخول مرة أخرى وسيُحفظ ما كنت تحفظه.",
                                             en: "Your session ended. Sign in again and what you were saving will be saved.")
        static let title = LocalizedText(ar: "إرسال ما كنت تحفظه", en: "Sending what you were saving")
        static let sending = LocalizedText(ar: "سجّلت الدخول مرة أخرى. يُرسَل الآن ما كنت تحفظه.",
                                           en: "You are signed in again. What you were saving is being sent now.")
        static let send = LocalizedText(ar: "أرسله الآن", en: "Send it now")
    }
}
