@testable import Core
import Foundation
import HogwartsTestSupport
import Messages
import Notifications
import Testing

/// `/api/v1/live` in the test process: a stream lives as long as the token that opened it.
@Suite("Notifications on the live stream")
struct NotificationsLiveTests {
    @Test("a stream ends when its token expires, after sending what came while the token was good; the token then opens nothing")
    func streamEndsWithItsToken() async throws {
        let (fixture, parent, teacher) = try NotificationsRouteTests.inbox(0)
        let conversation = try fixture.run(StartConversation.self, .init(kind: .direct, participants: ["parent@databayt.org"]), as: teacher).id
        try await fixture.harness.api { api in
            let token = try await api.token(for: parent)
            // Five seconds before the token's end (tokens live a day).
            fixture.clock.advance(minutes: AccessTokens.accessLifetime / 60 - 5.0 / 60)
            // From the school's live clock as it stands, as an app resumes from the last id it
            // kept: the message is heard however late the stream opens (a loaded machine took
            // longer than a second to open it, and a stream hears only what comes after it).
            let clock = try fixture.harness.kernel.store.read { db in
                try db.fetchValue(Int64.self, sql: "SELECT seq FROM kernel_live_clock WHERE school_id = ?", arguments: [fixture.school.id]) ?? 0
            }
            let headers = ["Authorization": "Bearer \(token)", "Accept": "text/event-stream", "Accept-Language": "en"]
            async let stream = api.request(.get, "/api/v1/live", headers: headers.merging(["Last-Event-ID": String(clock)]) { $1 })
            try fixture.run(SendMessage.self, .init(conversation: conversation, body: "Before the end"), as: teacher)
            // The request returns only because the stream ended: it would otherwise last a day.
            let ended = Task {
                try await Task.sleep(for: .seconds(60))
                Issue.record("the stream outlived its token by a minute")
            }
            let answer = try await stream
            ended.cancel()
            let text = String(decoding: answer.body, as: UTF8.self)
            #expect(answer.status == 200 && text.hasPrefix("retry: 2000"))
            #expect(text.contains("event: notification") && text.contains("Before the end"), "\(text)")

            fixture.clock.advance(minutes: 1)
            let late = try await api.request(.get, "/api/v1/live", headers: headers)
            #expect(late.status == 401)
        }
    }
}
