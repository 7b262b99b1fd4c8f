import Auth
import Core
import Foundation
import HogwartsTestSupport
import Testing

/// "Forgot your password?" in the web console: the API's flow behind two forms.
@Suite("Password reset in the web console")
struct ConsolePasswordResetTests {
    @Test("the sign-in page links to it; the emailed code and a new password change the password, and the old one stops working")
    func wholeFlow() async throws {
        let fixture = try ResetFixture()
        try fixture.addUser("amina@school.org")
        try await fixture.harness.console { console in
            let signIn = try await console.get("/sign-in")
            #expect(signIn.html.contains("href=\"/forgot-password\"") && signIn.html.contains("نسيت كلمة المرور؟"))
            let form = try await console.get("/forgot-password")
            #expect(form.status == 200 && form.html.contains("name=\"email\""))

            let asked = try await console.post("/forgot-password", [("email", "amina@school.org")])
            let unknown = try await console.post("/forgot-password", [("email", "nobody@school.org")])
            #expect(asked.status == 200 && unknown.status == 200)
            #expect(asked.html.contains("name=\"code\"") && asked.html.contains("role=\"status\""), "the second step, with the same notice")
            #expect(asked.html.replacingOccurrences(of: "amina@school.org", with: "") .contains("إن كان لهذا البريد حساب"))
            let codeMail = try #require(try await fixture.mail.waitFor(1).first)
            let code = try #require(MailCatcher.code(in: codeMail))
            fixture.nextMinute()

            let weak = try await console.post("/forgot-password/new", [("email", "amina@school.org"), ("code", code), ("password", "short")])
            #expect(weak.status == 400 && weak.html.contains("قصيرة"), "the rule, in the page's words")
            let wrongCode = code == "000000" ? "000001" : "000000"
            let refused = try await console.post("/forgot-password/new", [("email", "amina@school.org"), ("code", wrongCode), ("password", "Blue-Nile-River-7")])
            #expect(refused.status == 401 && refused.html.contains("role=\"alert\""))
            let done = try await console.post("/forgot-password/new", [("email", "amina@school.org"), ("code", code), ("password", "Blue-Nile-River-7")])
            #expect(done.status == 200 && done.html.contains("تغيّرت كلمة مرورك"), "back on the sign-in page, told what happened")
            fixture.nextMinute()
            #expect(try await console.signIn("amina@school.org", "Corr3ct-Horse").status == 401)
            #expect(try await console.signIn("amina@school.org", "Blue-Nile-River-7").status == 200)
        }
        #expect(fixture.mail.mails.count == 1, "the unknown email was answered the same and mailed nothing")
    }

    @Test("a form without the CSRF token changes nothing and mails nothing")
    func csrf() async throws {
        let fixture = try ResetFixture()
        try fixture.addUser("amina@school.org")
        try await fixture.harness.console { console in
            let page = try await console.post("/forgot-password", [("email", "amina@school.org"), ("_csrf", "forged")])
            #expect(page.status == 403)
        }
        try await Task.sleep(for: .milliseconds(300))
        #expect(fixture.mail.mails.isEmpty)
    }
}
