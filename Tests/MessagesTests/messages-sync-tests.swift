import Auth
import Core
import Foundation
import HogwartsTestSupport
import Messages
import Students
import Testing

/// Seed 000 §9.2 for messages: merge, appended by timestamp; a message is keyed by its client id.
@Suite("Messages: offline sync")
struct MessagesSyncTests {
    @Test("a message written offline ten minutes ago lands two minutes before it arrived; one from a clock ahead lands two minutes after")
    func clamped() throws {
        let fixture = try MessagesFixture()
        let teacher = try fixture.account("teacher@databayt.org")
        let conversation = try fixture.run(StartConversation.self, .init(kind: .direct, participants: ["parent@databayt.org"]), as: teacher).id
        let now = fixture.clock.now
        let late = try fixture.run(SendMessage.self, .init(conversation: conversation, body: "written on the bus", clientID: "c-1",
                                                           sentAt: now.addingTimeInterval(-600)), as: teacher).message
        #expect(late.sentAt == now.addingTimeInterval(-120))
        let early = try fixture.run(SendMessage.self, .init(conversation: conversation, body: "clock ahead", clientID: "c-2",
                                                            sentAt: now.addingTimeInterval(3600)), as: teacher).message
        #expect(early.sentAt == now.addingTimeInterval(120))
        let within = try fixture.run(SendMessage.self, .init(conversation: conversation, body: "a minute ago", clientID: "c-3",
                                                             sentAt: now.addingTimeInterval(-60)), as: teacher).message
        #expect(within.sentAt == now.addingTimeInterval(-60), "inside the window the author's time is kept")
    }

    @Test("two people's offline messages interleave by when they were written; equal times keep their order of arrival")
    func interleave() throws {
        let fixture = try MessagesFixture()
        let teacher = try fixture.account("teacher3@databayt.org")
        let parent = try fixture.account("parent@databayt.org")
        let conversation = try fixture.run(StartConversation.self, .init(kind: .direct, participants: ["parent@databayt.org"]), as: teacher).id
        let now = fixture.clock.now
        // The parent's phone syncs first with two messages, then the teacher's with one written between them.
        try fixture.run(SendMessage.self, .init(conversation: conversation, body: "P1", clientID: "p-1", sentAt: now.addingTimeInterval(-90)), as: parent)
        try fixture.run(SendMessage.self, .init(conversation: conversation, body: "P2", clientID: "p-2", sentAt: now.addingTimeInterval(-30)), as: parent)
        try fixture.run(SendMessage.self, .init(conversation: conversation, body: "T1", clientID: "t-1", sentAt: now.addingTimeInterval(-60)), as: teacher)
        // Both clamped to the same instant: the one that arrived first stays first.
        try fixture.run(SendMessage.self, .init(conversation: conversation, body: "T2", clientID: "t-2", sentAt: now.addingTimeInterval(-900)), as: teacher)
        try fixture.run(SendMessage.self, .init(conversation: conversation, body: "P3", clientID: "p-3", sentAt: now.addingTimeInterval(-800)), as: parent)
        let shown = try fixture.run(ShowConversation.self, .init(conversation: conversation), as: parent).messages.map(\.body)
        #expect(shown == ["T2", "P3", "P1", "T1", "P2"])
        let paged = try fixture.run(PageMessages.self, .init(conversation: conversation), as: teacher).messages.map(\.message.body)
        #expect(paged == shown.reversed(), "the phone's page reads the same order, newest first")
    }

    @Test("the same send replayed, even after the server restarts, is one message")
    func replayIsOneMessage() throws {
        let fixture = try MessagesFixture()
        let teacher = try fixture.account("teacher@databayt.org")
        let conversation = try fixture.run(StartConversation.self, .init(kind: .direct, participants: ["parent@databayt.org"]), as: teacher).id
        let send = SendMessage.Input(conversation: conversation, body: "See you tomorrow", clientID: "0b5e2f4c-offline-1",
                                     sentAt: fixture.clock.now.addingTimeInterval(-30))
        let first = try fixture.run(SendMessage.self, send, as: teacher)
        let again = try fixture.run(SendMessage.self, send, as: teacher)
        #expect(!first.deduplicated && again.deduplicated && again.message == first.message)
        // A new process on the same database file: the client id is stored, not remembered.
        let clock = fixture.clock
        let restarted = try Kernel(databasePath: fixture.harness.databasePath, modules: [AuthModule(), StudentsModule(), MessagesModule()],
                                   clock: { clock.now.addingTimeInterval(300) })
        let afterRestart = try restarted.run(SendMessage.self, send, as: teacher, in: fixture.school.id)
        #expect(afterRestart.deduplicated && afterRestart.message.id == first.message.id)
        let shown = try restarted.run(ShowConversation.self, .init(conversation: conversation), as: teacher, in: fixture.school.id).messages
        #expect(shown.filter { $0.body == "See you tomorrow" }.count == 1)
    }
}

/// Pushes and pulls through the kernel's sync entry points, as the sync routes do.
struct MessagesSyncProbe {
    let kernel: Kernel
    let school: School

    static func time(_ date: Date) -> APIValue { .string(date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))) }

    func push(_ mutations: [(seq: Int, name: String, args: APIValue)], client: String, as principal: Principal) throws -> SyncPushResponse {
        try kernel.syncPush(SyncPushRequest(clientId: client, mutations: mutations.map {
            SyncPushMutation(seq: $0.seq, id: "00000000-0000-4000-8000-\(String(format: "%012d", $0.seq))", name: $0.name, args: $0.args)
        }), as: principal, in: school.id)
    }

    /// Every entity an app of the caller holds after its snapshot and a pull.
    func replica(as principal: Principal, in school: School? = nil) throws -> [String: [String: APIValue]] {
        try TestDevice(kernel, as: principal, in: (school ?? self.school).id).entities
    }
}

@Suite("Messages: sync routes")
struct MessagesSyncRouteTests {
    @Test("messages.send@1 pushed twice is one message; the same client id under a new seq is still one; no client id is refused and does not block the queue")
    func sendOnce() throws {
        let fixture = try MessagesFixture()
        let probe = MessagesSyncProbe(kernel: fixture.harness.kernel, school: fixture.school)
        let teacher = try fixture.account("teacher3@databayt.org")
        let conversation = try fixture.run(StartConversation.self, .init(kind: .direct, participants: ["parent@databayt.org"]), as: teacher).id
        let client = UUID().uuidString.lowercased()
        let send: APIValue = .object(["conversation": .string(conversation), "body": "Offline hello", "clientId": "msg-1",
                                      "sentAt": MessagesSyncProbe.time(fixture.clock.now.addingTimeInterval(-600))])
        let first = try probe.push([(1, "messages.send@1", send)], client: client, as: teacher)
        let again = try probe.push([(1, "messages.send@1", send)], client: client, as: teacher)
        #expect(first.results.map(\.status) == [.applied] && again.results.map(\.status) == [.duplicate])
        // The phone lost the answer and queued the message again as a new mutation.
        let requeued = try probe.push([(2, "messages.send@1", send)], client: client, as: teacher)
        #expect(requeued.results.first?.status == .applied)
        guard case .object(let output) = requeued.results.first?.result else { Issue.record("no result"); return }
        #expect(output["deduplicated"] == .bool(true))
        let noID = try probe.push([(3, "messages.send@1", .object(["conversation": .string(conversation), "body": "no id"])),
                                   (4, "messages.send@1", .object(["conversation": .string(conversation), "body": "Next", "clientId": "msg-2"]))],
                                  client: client, as: teacher)
        #expect(noID.results.map(\.status) == [.rejected, .applied])
        #expect(noID.results.first?.code == "MESSAGES_CLIENT_ID_REQUIRED")
        let shown = try fixture.run(ShowConversation.self, .init(conversation: conversation), as: teacher).messages
        #expect(shown.map(\.body) == ["Offline hello", "Next"])
        #expect(shown.first?.sentAt == fixture.clock.now.addingTimeInterval(-120), "clamped on the sync path too")
    }

    @Test("a conversation and its messages reach its participants only; another school's people get nothing of them")
    func scope() throws {
        let fixture = try MessagesFixture()
        let probe = MessagesSyncProbe(kernel: fixture.harness.kernel, school: fixture.school)
        let teacher = try fixture.account("teacher3@databayt.org")
        let parent = try fixture.account("parent@databayt.org")
        let conversation = try fixture.run(StartConversation.self, .init(kind: .direct, participants: ["parent@databayt.org"]), as: teacher).id
        let message = try fixture.run(SendMessage.self, .init(conversation: conversation, body: "Private note", clientID: "n-1"), as: teacher).message
        for person in [teacher, parent] {
            let replica = try probe.replica(as: person)
            #expect(replica["message/\(message.id)"]?["body"] == .string("Private note"))
            #expect(replica["message/\(message.id)"]?["clientId"] == .string("n-1"))
            guard case .array(let members) = replica["conversation/\(conversation)"]?["participants"] else {
                Issue.record("the conversation is missing for \(person.displayName)")
                continue
            }
            #expect(members.count == 2)
        }
        for outsider in [try fixture.account("teacher@databayt.org"), try fixture.account("admin@databayt.org"), try fixture.account("student@databayt.org")] {
            let replica = try probe.replica(as: outsider)
            #expect(replica["message/\(message.id)"] == nil && replica["conversation/\(conversation)"] == nil, "\(outsider.displayName) is not in it")
            #expect(!replica.keys.contains { $0.hasPrefix("message/") && replica[$0]?["conversationId"] == .string(conversation) })
        }
        let nile = try #require(try fixture.harness.kernel.schools().first { $0.slug == "nile" })
        let nileAdmin = try fixture.harness.kernel.run(SignIn.self, .init(email: "admin@nile.databayt.org", password: AuthDemo.password), as: .anonymous, in: nile.id)
        let nileUser = try #require(nileAdmin.user)
        let other = try probe.replica(as: Principal(userID: nileUser.id, role: nileUser.role, schoolID: nile.id, displayName: nileUser.displayName), in: nile)
        #expect(other["message/\(message.id)"] == nil && other["conversation/\(conversation)"] == nil)
    }
}
