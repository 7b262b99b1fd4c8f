import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HogwartsTestSupport
import Testing

/// Password reset end to end through real servers on loopback: two `hogwarts serve` nodes on one
/// database, msmtp handing the code's mail to aiosmtpd (a real SMTP server writing a Maildir),
/// the code read from that mailbox, then used on the other node. The helpers are
/// `email-delivery-tests.swift`'s.
@Suite("Password reset through a real SMTP server", .waitsOnProcesses, .serialized)
struct PasswordResetEmailTests {
    @Test("a teacher asks for a code on one node, reads it from their mailbox in Arabic, sets a new password on the other, signs in with it",
          .enabled(if: EmailDeliveryTests.toolsInstalled || EmailDeliveryTests.required, "install msmtp (apt) and aiosmtpd (pip) to run this"))
    func resetByMail() async throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo"]).status == 0)
        #expect(try hogwarts.run(["settings", "set", "notifications.email-from", "office@school.example.org", "--school", "demo"]).status == 0)
        #expect(try hogwarts.run(["notifications", "deliver"]).status == 0)
        let smtp = try SMTPServer(in: hogwarts.directory)
        defer { smtp.stop() }
        let agent = "\(try #require(DeployFiles.program("msmtp"))) --host=127.0.0.1 --port=\(smtp.port) --auth=off --tls=off --read-envelope-from -t"
        let servers = try (0..<2).map { _ in try ServedHogwarts(hogwarts, environment: ["HOGWARTS_SENDMAIL": agent]) }
        defer { for server in servers { _ = server.stop() } }

        // A code lives 10 minutes. On a loaded machine this test can sit unscheduled for longer
        // between asking and using its code (CI once waited 15 minutes): then the server was right
        // to refuse it, and the test asks again. A refusal inside the code's life fails the test.
        var code = ""
        var codesMailed: Set<String> = []
        for attempt in 1...3 {
            let askedAt = Date()
            let asked = try await servers[0].request("POST", "/api/mobile/auth/reset", json: ["email": "teacher@databayt.org"])
            let unknown = try await servers[0].request("POST", "/api/mobile/auth/reset", json: ["email": "nobody@databayt.org"])
            #expect(asked.status == 200 && asked.body == unknown.body, "the same answer for an unknown email")
            let mails = try await smtp.messages(count: codesMailed.count + 1)
            func codeIn(_ mail: ReceivedMail) -> String? { mail.text.firstMatch(of: /\b[0-9]{6}\b/).map { String($0.output) } }
            let mail = try #require(mails.first { codeIn($0).map { !codesMailed.contains($0) } ?? false }, "no new code mailed: \(mails.map(\.subject))")
            #expect(mail.to == "teacher@databayt.org" && mail.from == "office@school.example.org" && mail.language == "ar")
            #expect(mail.listUnsubscribe == "<mailto:office@school.example.org?subject=unsubscribe>", "no notification choices for a code")
            code = try #require(codeIn(mail), "\(mail.text)")
            codesMailed.insert(code)
            #expect(mail.subject.contains(code))

            let verified = try await servers[1].requestRetryingUnavailable("POST", "/api/mobile/auth/verify-otp", json: ["email": "teacher@databayt.org", "otp": code])
            let changed = verified.status == 200
                ? try await servers[1].requestRetryingUnavailable("POST", "/api/mobile/auth/new-password",
                                                                  json: ["email": "teacher@databayt.org", "otp": code, "new_password": "Blue-Nile-River-7"])
                : verified
            if changed.status == 200 { break }
            let waited = Date().timeIntervalSince(askedAt)
            if waited > 10 * 60 && attempt < 3 { continue }
            // What the server held when it refused.
            let held = try hogwarts.strings("""
                SELECT r.created_at || ' expires ' || r.expires_at || ' attempts ' || r.attempts || ' used ' || COALESCE(r.used_at, '-')
                FROM auth_password_resets r JOIN auth_users u ON u.id = r.user_id WHERE u.email = 'teacher@databayt.org'
                """)
            let step = verified.status == 200 ? "new-password" : "verify-otp"
            Issue.record("code \(code) refused by \(step) (\(changed.status) \(String(decoding: changed.body, as: UTF8.self))) \(Int(waited)) s after it was asked for; codes held: \(held); mails: \(try smtp.received().map(\.subject))")
            return
        }
        let signedIn = try await servers[0].requestRetryingUnavailable("POST", "/api/mobile/auth", json: ["identifier": "teacher@databayt.org", "password": "Blue-Nile-River-7"])
        #expect(signedIn.status == 200 && signedIn.object["access_token"] is String)
        #expect(try await servers[0].request("POST", "/api/mobile/auth", json: ["identifier": "teacher@databayt.org", "password": "1234"]).status == 401)

        // The used code is refused. (The address limit shared by the nodes is checked by the
        // many-servers test's burst: here the mail's wait can outlast the limit's minute on a busy machine.)
        #expect(try await servers[0].request("POST", "/api/mobile/auth/verify-otp", json: ["email": "teacher@databayt.org", "otp": code]).status == 401)
        #expect(try smtp.received().count == codesMailed.count, "one mail per request: the unknown email got none")
    }

    @Test("an administrator invites a new teacher with `hogwarts users invite`; the mail's link opens the page on a node, the teacher sets a password there and signs in with it",
          .enabled(if: EmailDeliveryTests.toolsInstalled || EmailDeliveryTests.required, "install msmtp (apt) and aiosmtpd (pip) to run this"))
    func invitationByMail() async throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo"]).status == 0)
        for (key, value) in [("notifications.email-from", "office@school.example.org"), ("notifications.site-url", "https://school.example.org/")] {
            #expect(try hogwarts.run(["settings", "set", key, value, "--school", "demo"]).status == 0)
        }
        #expect(try hogwarts.run(["notifications", "deliver"]).status == 0)
        let smtp = try SMTPServer(in: hogwarts.directory)
        defer { smtp.stop() }
        let agent = "\(try #require(DeployFiles.program("msmtp"))) --host=127.0.0.1 --port=\(smtp.port) --auth=off --tls=off --read-envelope-from -t"
        #expect(try hogwarts.run(["login", "--email", "admin@databayt.org", "--school", "demo"], input: "1234\n").status == 0)
        let invite = try hogwarts.run(["users", "invite", "--email", "invited.teacher@databayt.org", "--name", "Omar Hassan", "--role", "teacher", "--school", "demo", "--lang", "en"],
                                      environment: ["HOGWARTS_SENDMAIL": agent])
        #expect(invite.status == 0 && invite.stdout.contains("invited.teacher@databayt.org"), "\(invite.stdout) \(invite.stderr)")
        let server = try ServedHogwarts(hogwarts, environment: ["HOGWARTS_SENDMAIL": agent])
        defer { _ = server.stop() }

        let mail = try #require(try await smtp.messages(count: 1).first, "no mail arrived")
        #expect(mail.to == "invited.teacher@databayt.org" && mail.language == "ar")
        let link = try #require(mail.text.firstMatch(of: /https:\/\/school\.example\.org\/invitation\?token=[A-Za-z0-9._-]+/).map { String($0.output) }, "\(mail.text)")
        let path = String(link.dropFirst("https://school.example.org".count))
        let page = try await server.request("GET", path)
        #expect(page.status == 200)
        let html = String(decoding: page.body, as: UTF8.self)
        let field = try #require(html.firstMatch(of: /name="_csrf" value="([^"]+)"/).map { String($0.output.1) })
        let token = String(path.dropFirst("/invitation?token=".count))
        let form = "_csrf=\(field)&token=\(token)&password=Blue-Nile-River-7"
        let accepted = try await server.form("/invitation", form, cookie: "hogwarts_csrf=\(field)")
        #expect(accepted.status == 200 && String(decoding: accepted.body, as: UTF8.self).contains("اعتُمدت كلمة مرورك"), "on to the sign-in page, told so")
        let signedIn = try await server.request("POST", "/api/mobile/auth", json: ["identifier": "invited.teacher@databayt.org", "password": "Blue-Nile-River-7"])
        #expect(signedIn.status == 200 && (signedIn.object["user"] as? [String: Any])?["role"] as? String == "TEACHER")
    }
}

extension ServedHogwarts {
    /// Posts a form the way a browser does (following its redirect to the next page).
    func form(_ path: String, _ body: String, cookie: String) async throws -> Response {
        guard let url = URL(string: "http://127.0.0.1:\(port)\(path)") else { throw ServeError.badPath(path) }
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = Data(body.utf8)
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.setValue(cookie, forHTTPHeaderField: "Cookie")
        let (data, response) = try await URLSession.shared.data(for: request)
        return Response(status: (response as? HTTPURLResponse)?.statusCode ?? 0, body: data, headers: [:])
    }
}
