import Auth
import Core
import Foundation
import HogwartsTestSupport
import Messages
import Notifications
import Testing

/// Notifications in the web console: the list, one marked read, all marked read, through
/// `notifications.list` and `notifications.read`. Someone else's notification is never marked.
@Suite("Notifications in the web console")
struct NotificationsConsoleTests {
    static let path = "/m/notifications/list"

    @Test("a guardian sees a new message's notification and marks it read; another person cannot mark it")
    func markRead() async throws {
        let fixture = try NotificationsFixture()
        let teacher = try fixture.account("teacher@databayt.org")
        let parent = try fixture.account("parent@databayt.org")
        let conversation = try fixture.run(StartConversation.self, .init(kind: .direct, participants: ["parent@databayt.org"]), as: teacher).id
        try fixture.run(SendMessage.self, .init(conversation: conversation, body: "Please call the school"), as: teacher)
        let notification = try #require(try fixture.inbox(parent).first)
        try await fixture.harness.console { console in
            _ = try await console.signIn("teacher@databayt.org", AuthDemo.password, school: fixture.school.id)
            _ = try await console.get(Self.path)
            let other = try await console.post(Self.path, [("notification", notification.id)])
            // Someone else's notification is one that does not exist, as over the API.
            #expect(!other.html.contains("id=\"saved\"") && other.html.contains("لا يوجد إشعار واحد لك"))
        }
        #expect(try fixture.inbox(parent).contains { $0.id == notification.id })
        try await fixture.harness.console { console in
            let dashboard = try await console.signIn("parent@databayt.org", AuthDemo.password, school: fixture.school.id)
            #expect(dashboard.html.contains("href=\"\(Self.path)\""))
            let list = try await console.get(Self.path)
            #expect(list.html.contains("<html lang=\"ar\" dir=\"rtl\">"))
            #expect(list.html.contains("name=\"notification\" value=\"\(notification.id)\""))
            #expect(list.html.components(separatedBy: "<h1").count - 1 == 1)
            let marked = try await console.post(Self.path, [("notification", notification.id)])
            #expect(marked.html.contains("id=\"saved\""))
            #expect(!marked.html.contains("name=\"notification\" value=\"\(notification.id)\""))
            _ = try await console.post("/language", [("lang", "en"), ("back", Self.path)])
            #expect(try await console.get(Self.path).html.contains("<html lang=\"en\" dir=\"ltr\">"))
        }
        #expect(try !fixture.inbox(parent).contains { $0.id == notification.id })
    }
}
