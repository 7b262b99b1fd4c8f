import Auth
import Core
import Foundation
import HogwartsTestSupport
import Messages
import Students
import Testing

/// Writing in the web console: a reply in an open conversation and a new message, through
/// `messages.send` and `messages.start`, with the people to write to from `messages.recipients`.
@Suite("Messages: compose and reply in the web console")
struct MessagesConsoleComposeTests {
    static let list = "/m/messages/conversations"
    static let new = "/m/messages/new"

    @Test("a guardian answers a teacher's message; the thread shows it, the teacher has it unread, a second press stores one, an empty reply is refused beside the box")
    func reply() async throws {
        let fixture = try MessagesFixture()
        let teacher = try fixture.account("teacher@databayt.org")
        let conversation = try fixture.run(StartConversation.self, .init(kind: .direct, participants: ["parent@databayt.org"]), as: teacher).id
        try fixture.run(SendMessage.self, .init(conversation: conversation, body: "Sara did well today"), as: teacher)
        try await fixture.harness.console { console in
            try await console.signIn("parent@databayt.org", AuthDemo.password, school: fixture.school.id)
            let listed = try await console.get(Self.list)
            #expect(listed.html.contains("<a class=\"button\" href=\"\(Self.list)?c=\(conversation)\""), "a conversation link is a 44 px button")
            let opened = try await console.get("\(Self.list)?c=\(conversation)")
            #expect(opened.html.contains("id=\"reply-form\"") && opened.html.contains("<label for=\"reply-body\">ردّك</label>"))
            let client = try #require(Self.hidden("client", in: opened.html))

            let empty = try await console.post(Self.list, [("conversation", conversation), ("body", "   "), ("client", client)])
            #expect(empty.html.contains("id=\"reply-problem\"") && empty.html.contains("aria-invalid=\"true\""), "the problem beside the box")
            #expect(empty.html.contains("الرسالة من 1 إلى 4000 حرف."), "in the guardian's language")

            let sent = try await console.post(Self.list, [("conversation", conversation), ("body", "Thank you, see you Monday"), ("client", client)])
            #expect(sent.html.contains("id=\"sent\""))
            #expect(sent.html.contains("Thank you, see you Monday"))
            _ = try await console.get("\(Self.list)?c=\(conversation)")
            let again = try await console.post(Self.list, [("conversation", conversation), ("body", "Thank you, see you Monday"), ("client", client)])
            #expect(again.html.components(separatedBy: "Thank you, see you Monday").count - 1 == 2, "the thread and the list's preview: one message")
        }
        let thread = try fixture.run(ShowConversation.self, .init(conversation: conversation), as: teacher).messages.map(\.body)
        #expect(Array(thread.suffix(2)) == ["Sara did well today", "Thank you, see you Monday"], "the reply stored once, after the teacher's message")
        #expect(try fixture.unread(teacher, conversation) == 1)
    }

    @Test("an announcement's reader gets no reply box, and a reply posted anyway is refused in words")
    func readOnly() async throws {
        let fixture = try MessagesFixture()
        let admin = try fixture.account("admin@databayt.org")
        let notice = try fixture.run(StartConversation.self, .init(kind: .announcement, title: "Sports day", audience: "role:GUARDIAN"), as: admin).id
        try fixture.run(SendMessage.self, .init(conversation: notice, body: "Sports day is on Thursday"), as: admin)
        try await fixture.harness.console { console in
            try await console.signIn("parent@databayt.org", AuthDemo.password, school: fixture.school.id)
            _ = try await console.post("/language", [("lang", "en"), ("back", Self.list)])
            let opened = try await console.get("\(Self.list)?c=\(notice)")
            #expect(opened.html.contains("Sports day is on Thursday") && !opened.html.contains("id=\"reply-form\""))
            let refused = try await console.post(Self.list, [("conversation", notice), ("body", "Can I help?")])
            #expect(refused.html.contains("This conversation is read-only for you.") && refused.html.contains("Can I help?</textarea>"))
        }
        #expect(try fixture.run(ShowConversation.self, .init(conversation: notice), as: admin).messages.count == 1)
    }

    @Test("a guardian writes a new message to one of the people she may write to; a missing recipient is shown beside the field")
    func newDirect() async throws {
        let fixture = try MessagesFixture()
        let parent = try fixture.account("parent@databayt.org")
        let people = try fixture.run(ListRecipients.self, .init(), as: parent)
        let teacher = try #require(people.first { $0.role == .teacher })
        #expect(!people.contains { $0.role == .accountant || $0.role == .staff }, "not the school's office, only her children's people and the administrators")
        try await fixture.harness.console { console in
            try await console.signIn("parent@databayt.org", AuthDemo.password, school: fixture.school.id)
            #expect(try await console.get(Self.list).html.contains("href=\"\(Self.new)\""))
            let form = try await console.get(Self.new)
            #expect(form.status == 200 && form.html.contains("<option value=\"\(teacher.id)\">"))
            #expect(!form.html.contains("id=\"message-kinds\""), "a guardian starts direct conversations only")
            #expect(!form.html.contains("--") && !form.html.contains("hogwarts "))

            let missing = try await console.post(Self.new, [("kind", "DIRECT"), ("to", ""), ("body", "Hello")])
            #expect(missing.html.contains("id=\"to-problem\"") && missing.html.contains("Hello</textarea>"))

            let sent = try await console.post(Self.new, [("kind", "DIRECT"), ("to", teacher.id), ("body", "May Sara leave early on Tuesday?")])
            #expect(sent.html.contains("id=\"sent\"") && sent.html.contains("May Sara leave early on Tuesday?"))
        }
        let received = try fixture.run(ListConversations.self, .init(kind: .direct), as: try fixture.principal(teacher.id))
        #expect(received.contains { $0.latest?.body == "May Sara leave early on Tuesday?" && $0.unread == 1 })
    }

    @Test("a teacher writes to one of her classes; its guardians receive it; an accountant has no new-message page")
    func classMessage() async throws {
        let fixture = try MessagesFixture()
        let teacher = try fixture.account("teacher@databayt.org")
        let code = try #require(try fixture.run(ListTeacherClasses.self, .init(), as: teacher).first?.classCode)
        try await fixture.harness.console { console in
            try await console.signIn("teacher@databayt.org", AuthDemo.password, school: fixture.school.id)
            let form = try await console.get("\(Self.new)?kind=CLASS")
            #expect(form.html.contains("id=\"message-kinds\"") && form.html.contains("<option value=\"\(code)\""))
            #expect(!form.html.contains("kind=ANNOUNCEMENT"), "a teacher does not announce")
            let sent = try await console.post(Self.new, [("kind", "CLASS"), ("class", code), ("body", "Bring your atlas tomorrow")])
            #expect(sent.html.contains("id=\"sent\"") && sent.html.contains("Bring your atlas tomorrow"))
        }
        let started = try #require(try fixture.run(ListConversations.self, .init(kind: .class), as: teacher).first { $0.latest?.body == "Bring your atlas tomorrow" })
        #expect(started.participants > 2)
        try await fixture.harness.console { console in
            try await console.signIn("accountant@databayt.org", AuthDemo.password, school: fixture.school.id)
            #expect(!(try await console.get(Self.list).html.contains("href=\"\(Self.new)\"")))
            #expect(try await console.get(Self.new).status == 403)
        }
    }

    @Test("recipients follow the roster: a teacher reaches her classes' guardians, a guardian no other family")
    func recipients() throws {
        let fixture = try MessagesFixture()
        let teacher = try fixture.account("teacher@databayt.org")
        let parent = try fixture.account("parent@databayt.org")
        let teachers = try fixture.run(ListRecipients.self, .init(), as: teacher)
        #expect(teachers.contains { $0.id == parent.userID } == (try fixture.run(ListRecipients.self, .init(), as: parent).contains { $0.id == teacher.userID }))
        #expect(teachers.contains { $0.role == .guardian } && teachers.contains { $0.role == .admin })
        let parents = try fixture.run(ListRecipients.self, .init(), as: parent)
        let children = Set(try fixture.run(ListChildren.self, .init(), as: parent).compactMap(\.student.userID))
        #expect(parents.filter { $0.role == .student }.allSatisfy { children.contains($0.id) }, "her own children's accounts, no other student")
        #expect(!parents.contains { $0.id == parent.userID })
        let admin = try fixture.account("admin@databayt.org")
        #expect(try fixture.run(ListRecipients.self, .init(search: "الموظف"), as: admin).contains { $0.role == .staff })
    }

    static func hidden(_ name: String, in html: String) -> String? {
        guard let range = html.range(of: "name=\"\(name)\" value=\"") else { return nil }
        return String(html[range.upperBound...].prefix { $0 != "\"" })
    }
}

extension MessagesFixture {
    /// The account with this id, as a principal.
    func principal(_ id: String) throws -> Principal {
        let users = try harness.kernel.run(ListUsers.self, .init(), as: .localOperator, in: school.id)
        guard let user = users.first(where: { $0.id == id }) else { throw AuthError.unknownUser(id) }
        return Principal(userID: user.id, role: user.role, schoolID: school.id, displayName: user.displayName)
    }
}
