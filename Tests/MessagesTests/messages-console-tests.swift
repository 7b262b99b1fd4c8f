import Auth
import Core
import Foundation
import HogwartsTestSupport
import Messages
import Testing

/// Messages in the web console: the guardian's conversations, one opened and marked read through
/// `messages.update-membership`; a conversation they are not in is refused by `messages.show`.
@Suite("Messages in the web console")
struct MessagesConsoleTests {
    static let path = "/m/messages/conversations"

    @Test("a guardian lists their conversations, reads one and marks it read; another's conversation is refused")
    func readAndRefuse() async throws {
        let fixture = try MessagesFixture()
        let teacher = try fixture.account("teacher@databayt.org")
        let parent = try fixture.account("parent@databayt.org")
        let conversation = try fixture.run(StartConversation.self, .init(kind: .direct, participants: ["parent@databayt.org"]), as: teacher).id
        try fixture.run(SendMessage.self, .init(conversation: conversation, body: "Homework is on page 12"), as: teacher)
        let staff = try fixture.account("staff@databayt.org")
        let staffRoom = try fixture.run(StartConversation.self, .init(kind: .direct, participants: ["teacher2@databayt.org"]), as: staff).id
        try fixture.run(SendMessage.self, .init(conversation: staffRoom, body: "Staff room only"), as: staff)
        #expect(try fixture.unread(parent, conversation) >= 1)
        try await fixture.harness.console { console in
            let dashboard = try await console.signIn("parent@databayt.org", AuthDemo.password, school: fixture.school.id)
            #expect(dashboard.html.contains("href=\"\(Self.path)\""))
            let list = try await console.get(Self.path)
            #expect(list.html.contains("<html lang=\"ar\" dir=\"rtl\">"))
            #expect(list.html.contains("?c=\(conversation)"))
            #expect(!list.html.contains(staffRoom))
            let opened = try await console.get("\(Self.path)?c=\(conversation)")
            #expect(opened.html.contains("Homework is on page 12"))
            #expect(opened.html.components(separatedBy: "<h1").count - 1 == 1)
            let read = try await console.post(Self.path, [("conversation", conversation)])
            #expect(read.html.contains("id=\"saved\""))
            let refused = try await console.get("\(Self.path)?c=\(staffRoom)")
            #expect(refused.status >= 400 && !refused.html.contains("Staff room only"))
            _ = try await console.post("/language", [("lang", "en"), ("back", Self.path)])
            #expect(try await console.get(Self.path).html.contains("<html lang=\"en\" dir=\"ltr\">"))
        }
        #expect(try fixture.unread(parent, conversation) == 0)
    }
}
