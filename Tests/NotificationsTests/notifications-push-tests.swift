import Attendance
import Auth
import Core
import Crypto
import CryptoExtras
import Foundation
import HogwartsTestSupport
@testable import Notifications
import Students
import Testing

/// The push channel against APNs and FCM stand-ins on loopback (HTTP/2 over TLS through nginx):
/// what reaches the services, signed how, and what the school does with each answer.
@Suite("Push to phones (APNs, FCM)", .serialized,
       .enabled(if: PushStandIn.available, "needs nginx, openssl and python3 (Debian: nginx-light openssl python3)"))
struct NotificationsPushTests {
    let fixture: NotificationsFixture
    let server: PushStandIn
    let apnsKey = P256.Signing.PrivateKey()

    init() throws {
        fixture = try NotificationsFixture()
        server = try PushStandIn(in: fixture.harness.directory)
    }

    func set(_ key: String, _ value: String) throws {
        try fixture.harness.kernel.setSetting("notifications.\(key)", to: value, for: fixture.school.id, by: .localOperator)
    }

    func configureAPNs() throws {
        let path = fixture.harness.directory.appending(path: "AuthKey_ABC123DEFG.p8")
        try apnsKey.pemRepresentation.write(to: path, atomically: true, encoding: .utf8)
        for (key, value) in [("apns-key-path", path.path), ("apns-key-id", "ABC123DEFG"), ("apns-team-id", "TEAM123456"),
                             ("apns-topic", "org.databayt.hogwarts"), ("apns-url", server.url), ("push-ca-path", server.certificate)] {
            try set(key, value)
        }
    }

    /// A service account of the test's own, with its token exchange at the stand-in.
    func configureFCM() throws -> _RSA.Signing.PrivateKey {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let account: [String: String] = ["type": "service_account", "project_id": "hogwarts-test", "private_key_id": "key-1", "private_key": key.pemRepresentation,
                                         "client_email": "push@hogwarts-test.iam.gserviceaccount.com", "token_uri": "\(server.url)/token"]
        let path = fixture.harness.directory.appending(path: "service-account.json")
        try JSONSerialization.data(withJSONObject: account).write(to: path)
        try set("fcm-service-account-path", path.path)
        try set("fcm-url", server.url)
        try set("push-ca-path", server.certificate)
        return key
    }

    func absent(_ child: Student, period: String) throws {
        try fixture.run(TakeAttendance.self, .init(classCode: child.classCode ?? "", period: period, marks: [AttendanceMark(student: child.grNumber, status: .absent)]))
    }

    func pushEntries() throws -> [OutboxEntry] {
        try fixture.run(ListOutbox.self, .init(all: true)).filter { $0.channel == "push" }
    }

    /// A JWT's three parts, decoded where they are JSON.
    func parts(_ jwt: String) throws -> (header: [String: Any], claims: [String: Any], input: Data, signature: Data) {
        let pieces = jwt.split(separator: ".").map(String.init)
        try #require(pieces.count == 3)
        func decode(_ text: String) throws -> Data {
            var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
            return try #require(Data(base64Encoded: base64))
        }
        let header = try JSONSerialization.jsonObject(with: try decode(pieces[0])) as? [String: Any] ?? [:]
        let claims = try JSONSerialization.jsonObject(with: try decode(pieces[1])) as? [String: Any] ?? [:]
        return (header, claims, Data("\(pieces[0]).\(pieces[1])".utf8), try decode(pieces[2]))
    }

    @Test("an absence reaches an iPhone once over HTTP/2: signed ES256 with the school's key, to the app's topic, in the guardian's language; nothing before APNs is set up, nothing once they switch push off for absences")
    func apnsDelivery() throws {
        defer { server.stop() }
        let (parent, child) = try fixture.parentAndChild()
        let token = String(repeating: "ab12", count: 16)
        try fixture.run(RegisterDevice.self, .init(token: token, platform: .ios), as: parent)
        try absent(child, period: "P1")
        #expect(try pushEntries().isEmpty, "no push before the school sets APNs up")

        try configureAPNs()
        try absent(child, period: "P2")
        let delivered = try fixture.deliver()
        #expect(delivered.failed == 0 && delivered.retrying == 0)
        #expect(try fixture.deliver().sent == 0, "nothing left to send")
        let requests = try server.requests()
        try #require(requests.count == 1)
        let request = requests[0]
        #expect(request.path == "/3/device/\(token)")
        #expect(request.headers["x-protocol"] == "HTTP/2.0", "APNs speaks HTTP/2 only")
        #expect(request.headers["apns-topic"] == "org.databayt.hogwarts")
        #expect(request.headers["apns-push-type"] == "alert")
        #expect(["5", "10"].contains(request.headers["apns-priority"] ?? ""))
        // Both absences are in the inbox; only the second (after APNs was set up) was pushed.
        let body = try request.json()
        let alert = try #require(try fixture.inbox(parent).first { $0.id == body["notification"] as? String })
        #expect(alert.type == .attendanceAlert && alert.body.en.contains("P2"), "\(alert.body.en)")
        #expect(request.headers["apns-collapse-id"] == alert.link)

        let bearer = try #require(request.headers["authorization"])
        #expect(bearer.hasPrefix("bearer "))
        let jwt = try parts(String(bearer.dropFirst("bearer ".count)))
        #expect(jwt.header["alg"] as? String == "ES256" && jwt.header["kid"] as? String == "ABC123DEFG")
        #expect(jwt.claims["iss"] as? String == "TEAM123456")
        #expect(jwt.claims["iat"] as? Int == Int(fixture.clock.now.timeIntervalSince1970))
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: jwt.signature)
        #expect(apnsKey.publicKey.isValidSignature(signature, for: jwt.input), "signed with the school's .p8 key")

        let aps = try #require(body["aps"] as? [String: Any])
        let words = try #require(aps["alert"] as? [String: String])
        let language = try fixture.run(ShowProfile.self, .init(), as: parent).language
        #expect(words["title"] == alert.title.text(in: language) && words["body"] == alert.body.text(in: language))
        #expect(aps["sound"] as? String == "default" && (aps["badge"] as? Int ?? 0) >= 1)
        #expect(body["link"] as? String == alert.link)

        try fixture.run(SetChannelPreferences.self, .init(changes: [.init(type: "ATTENDANCE_ALERT", channel: .push, enabled: false)]), as: parent)
        try absent(child, period: "P3")
        try fixture.deliver()
        #expect(try server.requests().count == 1, "push switched off for absences: nothing more reaches the phone")
        #expect(try fixture.inbox(parent).filter { $0.type == .attendanceAlert }.count == 3, "the app keeps every alert")
    }

    @Test("an absence reaches an Android phone: the service account's RS256 JWT is exchanged once for an access token, which authorizes messages:send, in the guardian's language")
    func fcmDelivery() throws {
        defer { server.stop() }
        let (parent, child) = try fixture.parentAndChild()
        let key = try configureFCM()
        try fixture.run(UpdateProfile.self, .init(language: .en), as: parent)
        try fixture.run(RegisterDevice.self, .init(token: "fcm-token-of-the-parents-phone", platform: .android), as: parent)
        try absent(child, period: "P1")
        try absent(child, period: "P2")
        let delivered = try fixture.deliver()
        #expect(delivered.failed == 0 && delivered.retrying == 0)

        let requests = try server.requests()
        #expect(requests.map(\.path) == ["/token", "/v1/projects/hogwarts-test/messages:send", "/v1/projects/hogwarts-test/messages:send"],
                "one token exchange, then both messages with the cached token")
        let exchange = requests[0]
        let form = Dictionary(uniqueKeysWithValues: exchange.body.split(separator: "&").map { pair -> (String, String) in
            let halves = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? "" }
            return (halves[0], halves.count > 1 ? halves[1] : "")
        })
        #expect(form["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer")
        let jwt = try parts(try #require(form["assertion"]))
        #expect(jwt.header["alg"] as? String == "RS256")
        #expect(jwt.claims["iss"] as? String == "push@hogwarts-test.iam.gserviceaccount.com")
        #expect(jwt.claims["aud"] as? String == "\(server.url)/token")
        #expect(jwt.claims["scope"] as? String == "https://www.googleapis.com/auth/firebase.messaging")
        let signature = _RSA.Signing.RSASignature(rawRepresentation: jwt.signature)
        #expect(key.publicKey.isValidSignature(signature, for: SHA256.hash(data: jwt.input), padding: .insecurePKCS1v1_5))

        #expect(requests.dropFirst().allSatisfy { $0.headers["authorization"] == "Bearer ya29.stand-in" })
        let alert = try #require(try fixture.inbox(parent).first { $0.type == .attendanceAlert })
        let messages = try requests.dropFirst().map { try #require(try $0.json()["message"] as? [String: Any]) }
        // The two absences leave in either order: the one about this alert carries its id.
        let message = try #require(messages.first { ($0["data"] as? [String: String])?["notification"] == alert.id })
        #expect(message["token"] as? String == "fcm-token-of-the-parents-phone")
        let words = try #require(message["notification"] as? [String: String])
        #expect(words["title"] == alert.title.en && words["body"] == alert.body.en, "in English, the guardian's choice")
        #expect((message["data"] as? [String: String])?["link"] == alert.link)
    }

    @Test("a token the service calls gone (APNs 410 Unregistered, FCM 404 UNREGISTERED, FCM 400 invalid token) is dropped at once, not retried, and gets no more pushes")
    func goneTokens() throws {
        defer { server.stop() }
        let (parent, child) = try fixture.parentAndChild()
        try configureAPNs()
        _ = try configureFCM()
        // The first with its platform (which retires the parent's other tokens), the others as the iOS app's plain register.
        try fixture.run(RegisterDevice.self, .init(token: "gone-iphone", platform: .ios), as: parent)
        try fixture.run(RegisterDevice.self, .init(token: "gone-android-phone"), as: parent)
        try fixture.run(RegisterDevice.self, .init(token: "bad-android-phone"), as: parent)
        try absent(child, period: "P1")
        let delivered = try fixture.deliver()
        #expect(delivered.retrying == 0 && delivered.failed == 0, "a gone token is not worth another try")
        #expect(try pushEntries().allSatisfy { $0.state == "SENT" })
        #expect(try fixture.run(ListDevices.self, .init(), as: parent).allSatisfy { !$0.active }, "every token dropped")
        let before = try server.requests().count
        #expect(before == 4, "one exchange and one push per phone")

        try absent(child, period: "P2")
        try fixture.deliver()
        #expect(try server.requests().count == before, "no push to a dropped token")
    }

    @Test("APNs 500 and FCM 429 are retried with backoff (or after the service's Retry-After), each push sent once per attempt, and after the last attempt they are FAILED in the outbox's dead letters; the phones stay registered")
    func retriedThenFailed() throws {
        defer { server.stop() }
        let (parent, child) = try fixture.parentAndChild()
        try configureAPNs()
        _ = try configureFCM()
        try fixture.run(RegisterDevice.self, .init(token: "down-iphone", platform: .ios), as: parent)
        try fixture.run(RegisterDevice.self, .init(token: "busy-android-phone"), as: parent)
        try absent(child, period: "P1")
        let first = try fixture.deliver()
        #expect(first.retrying == 2)
        #expect(try fixture.deliver().retrying == 0, "not again before the backoff ends")
        let waiting = try pushEntries()
        let busy = try #require(waiting.first { $0.lastError?.contains("429") == true })
        #expect(busy.nextAttemptAt == fixture.clock.now.addingTimeInterval(600), "FCM's Retry-After (600 s) is longer than the first backoff, and obeyed")
        let down = try #require(waiting.first { $0.lastError?.contains("500") == true })
        #expect(try #require(down.nextAttemptAt) <= fixture.clock.now.addingTimeInterval(75), "a minute's backoff, a quarter more at most")
        var failed = first.failed
        for _ in 1..<AdvanceOutbox.maxAttempts {
            // Longer than any backoff (at most 16 minutes and a quarter).
            fixture.clock.advance(minutes: 30)
            failed += try fixture.deliver().failed
        }
        #expect(failed == 2)
        let dead = try fixture.run(ListOutbox.self, .init(failedOnly: true)).filter { $0.channel == "push" }
        #expect(dead.count == 2 && dead.allSatisfy { $0.attempts == AdvanceOutbox.maxAttempts })
        #expect(dead.contains { $0.lastError?.contains("APNs answered 500") == true })
        #expect(dead.contains { $0.lastError?.contains("FCM answered 429") == true })
        let pushes = try server.requests().filter { $0.path != "/token" }
        #expect(pushes.filter { $0.path == "/3/device/down-iphone" }.count == AdvanceOutbox.maxAttempts)
        #expect(pushes.filter { $0.path.hasSuffix("messages:send") }.count == AdvanceOutbox.maxAttempts)
        #expect(try fixture.run(ListDevices.self, .init(), as: parent).filter(\.active).count == 2, "a busy service is no reason to drop a phone")
    }
}
