import Auth
import Core
import Foundation
import HogwartsTestSupport
import Messages
import Students
import Testing

final class MessageClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current = (try? Date.ISO8601FormatStyle().parse("2026-11-22T06:00:00Z")) ?? Date()
    var now: Date { lock.withLock { current } }
    func advance(minutes: Double) { lock.withLock { current = current.addingTimeInterval(minutes * 60) } }
}

struct MessagesFixture {
    let harness: TestHarness
    let school: School
    let clock = MessageClock()

    init() throws {
        let clock = self.clock
        let (harness, schools) = try TestHarness.withDemo(modules: [AuthModule(), StudentsModule(), MessagesModule()], clock: { clock.now })
        self.harness = harness
        school = schools[0]
    }

    func account(_ email: String) throws -> Principal {
        let result = try harness.kernel.run(SignIn.self, .init(email: email, password: AuthDemo.password), as: .anonymous, in: school.id)
        guard let user = result.user else { throw AuthError.signInRefused }
        return Principal(userID: user.id, role: user.role, schoolID: school.id, displayName: user.displayName)
    }

    @discardableResult
    func run<A: Action>(_ action: A.Type, _ input: A.Input, as principal: Principal) throws -> A.Output {
        try harness.kernel.run(action, input, as: principal, in: school.id)
    }

    func unread(_ principal: Principal, _ conversation: String) throws -> Int {
        try run(ListConversations.self, .init(), as: principal).first { $0.id == conversation }?.unread ?? -1
    }
}

@Suite("Messages")
struct MessagesTests {
    @Test("every string exists in Arabic and English")
    func strings() {
        #expect(MessagesModule().strings.text("messages.module.name", in: .ar) != nil)
        #expect(MessagesModule().strings.missingTranslations.isEmpty)
    }

    @Test("at most one direct conversation per pair, whoever starts it")
    func oneDirectPerPair() throws {
        let fixture = try MessagesFixture()
        let staff = try fixture.account("staff@databayt.org")
        let teacher = try fixture.account("teacher2@databayt.org")
        let first = try fixture.run(StartConversation.self, .init(kind: .direct, participants: ["teacher2@databayt.org"]), as: staff).id
        let second = try fixture.run(StartConversation.self, .init(kind: .direct, participants: ["staff@databayt.org"]), as: teacher).id
        #expect(first == second)
        #expect(try fixture.run(ListConversations.self, .init(), as: staff).filter { $0.kind == .direct }.count == 1)
    }

    @Test("who may start what follows the role table; participants come from the same school only")
    func startingRules() throws {
        let fixture = try MessagesFixture()
        let parent = try fixture.account("parent@databayt.org")
        #expect(throws: MessagesError.cannotStart("GROUP")) {
            try fixture.run(StartConversation.self, .init(kind: .group, title: "Parents", participants: ["teacher@databayt.org"]), as: parent)
        }
        #expect(throws: KernelError.permissionDenied(permission: "messages.start", role: .accountant), "the PRD: accountants do not send") {
            try fixture.run(StartConversation.self, .init(kind: .direct, participants: ["teacher@databayt.org"]), as: try fixture.account("accountant@databayt.org"))
        }
        #expect(throws: MessagesError.unknownUser("admin@nile.databayt.org")) {
            try fixture.run(StartConversation.self, .init(kind: .direct, participants: ["admin@nile.databayt.org"]), as: parent)
        }
        #expect(throws: MessagesError.cannotStart("ANNOUNCEMENT")) {
            try fixture.run(StartConversation.self, .init(kind: .announcement, title: "x"), as: try fixture.account("teacher@databayt.org"))
        }
    }

    @Test("unread counts come from one model, retries are harmless, and read-only participants cannot send")
    func unreadAndRetries() throws {
        let fixture = try MessagesFixture()
        let teacher = try fixture.account("teacher3@databayt.org")
        let parent = try fixture.account("parent@databayt.org")
        let conversation = try fixture.run(StartConversation.self, .init(kind: .direct, participants: ["parent@databayt.org"]), as: teacher).id
        try fixture.run(SendMessage.self, .init(conversation: conversation, body: "Hello", clientID: "phone-1"), as: teacher)
        try fixture.run(SendMessage.self, .init(conversation: conversation, body: "Hello", clientID: "phone-1"), as: teacher)
        try fixture.run(SendMessage.self, .init(conversation: conversation, body: "Are you there?"), as: teacher)
        #expect(try fixture.unread(parent, conversation) == 2, "the retry was not a second message")
        #expect(try fixture.unread(teacher, conversation) == 0, "one's own messages are read")
        try fixture.run(UpdateMembership.self, .init(conversation: conversation, markRead: true), as: parent)
        #expect(try fixture.unread(parent, conversation) == 0)

        let admin = try fixture.account("admin@databayt.org")
        let announcement = try fixture.run(StartConversation.self, .init(kind: .announcement, title: "Closure", audience: "role:GUARDIAN"), as: admin).id
        #expect(throws: MessagesError.readOnly) { try fixture.run(SendMessage.self, .init(conversation: announcement, body: "Thanks"), as: parent) }
        #expect(throws: MessagesError.unknownConversation(announcement)) { try fixture.run(ShowConversation.self, .init(conversation: announcement), as: teacher) }
        #expect(throws: MessagesError.bodyLength) { try fixture.run(SendMessage.self, .init(conversation: conversation, body: String(repeating: "x", count: 4001)), as: teacher) }
    }

    @Test("messages written offline land in time order, newest last, with a stable tie-break, and still count as unread")
    func offlineOrdering() throws {
        let fixture = try MessagesFixture()
        let teacher = try fixture.account("teacher3@databayt.org")
        let parent = try fixture.account("parent@databayt.org")
        let conversation = try fixture.run(StartConversation.self, .init(kind: .direct, participants: ["parent@databayt.org"]), as: teacher).id
        try fixture.run(SendMessage.self, .init(conversation: conversation, body: "second"), as: teacher)
        try fixture.run(UpdateMembership.self, .init(conversation: conversation, markRead: true), as: parent)
        // Written an hour ago on a phone without signal, synced now.
        try fixture.run(SendMessage.self, .init(conversation: conversation, body: "first", sentAt: fixture.clock.now.addingTimeInterval(-3600)), as: parent)
        #expect(try fixture.unread(teacher, conversation) == 1, "older than what the teacher has read, but it arrived after: unread")
        fixture.clock.advance(minutes: 1)
        try fixture.run(SendMessage.self, .init(conversation: conversation, body: "third"), as: teacher)
        let shown = try fixture.run(ShowConversation.self, .init(conversation: conversation), as: teacher)
        #expect(shown.messages.map(\.body) == ["first", "second", "third"])
    }

    @Test("a teacher starts a class conversation only for a class she teaches or is homeroom teacher of")
    func classConversationNeedsTheClass() throws {
        let fixture = try MessagesFixture()
        let admin = try fixture.account("admin@databayt.org")
        // A new class: teacher2 is its homeroom teacher, and nobody teaches a subject in it yet.
        try fixture.run(CreateClass.self, .init(code: "7Z", name: LocalizedText(ar: "السابع ز", en: "7-Z"), yearLevel: "G7",
                                                homeroomTeacherEmail: "teacher2@databayt.org"), as: admin)
        #expect(throws: MessagesError.cannotStart("7Z")) {
            try fixture.run(StartConversation.self, .init(kind: .class, title: "7Z", classCode: "7Z"), as: try fixture.account("teacher@databayt.org"))
        }
        let started = try fixture.run(StartConversation.self, .init(kind: .class, title: "7Z", classCode: "7Z"),
                                      as: try fixture.account("teacher2@databayt.org"))
        #expect(started.created, "the homeroom teacher may")
        #expect(try fixture.run(StartConversation.self, .init(kind: .class, title: "7Z", classCode: "7Z"), as: admin).created, "the school's administrator may")
    }

    @Test("one message sent four times at once with the same client id (an app's retry) is stored once; every copy answers it")
    func sameClientIDAtOnce() async throws {
        let fixture = try MessagesFixture()
        let teacher = try fixture.account("teacher@databayt.org")
        let conversation = try fixture.run(StartConversation.self, .init(kind: .direct, participants: ["parent@databayt.org"]), as: teacher).id
        for round in 1...5 {
            let answers = try await withThrowingTaskGroup(of: SentMessage.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        try fixture.run(SendMessage.self, .init(conversation: conversation, body: "Trip \(round)", clientID: "phone-\(round)"), as: teacher)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(Set(answers.map(\.message.id)).count == 1 && answers.filter { !$0.deduplicated }.count == 1, "round \(round)")
        }
        let shown = try fixture.run(ShowConversation.self, .init(conversation: conversation), as: teacher).messages
        #expect(shown.map(\.body).filter { $0.hasPrefix("Trip ") } == (1...5).map { "Trip \($0)" }, "each stored once, beside the demo's history")
    }

    @Test("edit within 15 minutes by the sender; delete by the sender or the conversation's owner, kept as deleted")
    func editAndDelete() throws {
        let fixture = try MessagesFixture()
        let teacher = try fixture.account("teacher@databayt.org")
        let parent = try fixture.account("parent@databayt.org")
        let conversation = try fixture.run(StartConversation.self, .init(kind: .class, title: "7A", classCode: "7A"), as: teacher).id
        let message = try fixture.run(SendMessage.self, .init(conversation: conversation, body: "Trip on Sunday"), as: parent).message
        #expect(throws: MessagesError.notSender) { try fixture.run(EditMessage.self, .init(message: message.id, body: "x"), as: teacher) }
        #expect(try fixture.run(EditMessage.self, .init(message: message.id, body: "Trip on Monday"), as: parent).edited)
        fixture.clock.advance(minutes: 16)
        #expect(throws: MessagesError.editWindowClosed) { try fixture.run(EditMessage.self, .init(message: message.id, body: "late"), as: parent) }
        try fixture.run(DeleteMessage.self, .init(message: message.id), as: teacher)
        let shown = try fixture.run(ShowConversation.self, .init(conversation: conversation), as: parent).messages
        #expect(shown.first?.deleted == true && shown.first?.body == "")
    }

    @Test("search finds Arabic without diacritics or hamza, only in one's own conversations")
    func search() throws {
        let fixture = try MessagesFixture()
        let parent = try fixture.account("parent@databayt.org")
        #expect(try fixture.run(SearchMessages.self, .init(query: "امتحان الرياضيات"), as: parent).count == 1)
        #expect(try fixture.run(SearchMessages.self, .init(query: "اعلان"), as: parent).isEmpty)
        #expect(try fixture.run(SearchMessages.self, .init(query: "الامتحان"), as: try fixture.account("staff@databayt.org")).isEmpty, "not a participant")
        #expect(!(try fixture.run(SearchMessages.self, .init(query: "ادوات الهندسه"), as: parent)).isEmpty, "أدوات / الهندسة folded")
    }
}
