import Core
import Foundation
import HogwartsTestSupport
import Messages
import Testing

/// Hostile input to messages (issue 11): refused with a reason naming the field, nothing written.
@Suite("Messages: bad input")
struct MessagesInputTests {
    @Test("pages outside 1...100000 are refused before any arithmetic; bodies keep line breaks but refuse other controls; titles are bounded")
    func pagesBodiesAndTitles() throws {
        let fixture = try MessagesFixture()
        let teacher = try fixture.account("teacher3@databayt.org")
        let conversation = try fixture.run(StartConversation.self, .init(kind: .direct, participants: ["parent@databayt.org"]), as: teacher).id
        for page in [0, -3, 100_001, 461_168_601_842_738_792, Int.max] {
            #expect(throws: InputError("messages.error.page")) { try fixture.run(ShowConversation.self, .init(conversation: conversation, page: page), as: teacher) }
        }
        let kept = try fixture.run(SendMessage.self, .init(conversation: conversation, body: "Dear parent,\n\tthe trip is on Sunday."), as: teacher).message
        #expect(kept.body == "Dear parent,\n\tthe trip is on Sunday.")
        for body in ["a\u{1B}[2J", "Al\u{0}i", "bell\u{7}", "over\rwrite", "bad \u{FFFD} byte", "c1 \u{9B}"] {
            let error = #expect(throws: InputError.self, "\(body.debugDescription)") {
                try fixture.run(SendMessage.self, .init(conversation: conversation, body: body), as: teacher)
            }
            #expect(error?.messageArguments["field"] == "body")
        }
        let edit = #expect(throws: InputError.self) { try fixture.run(EditMessage.self, .init(message: kept.id, body: "x\u{1B}"), as: teacher) }
        #expect(edit?.messageKey == "kernel.error.text-control")
        #expect(throws: InputError.self) {
            try fixture.run(SendMessage.self, .init(conversation: conversation, body: "hi", clientID: "id\u{1B}"), as: teacher)
        }
        #expect(try fixture.run(ShowConversation.self, .init(conversation: conversation), as: teacher).messages.map(\.body) == [kept.body])

        let admin = try fixture.account("admin@databayt.org")
        let before = try fixture.run(ListConversations.self, .init(), as: admin).count
        let long = #expect(throws: InputError.self) {
            try fixture.run(StartConversation.self, .init(kind: .group, title: String(repeating: "t", count: 10_000), participants: ["teacher@databayt.org"]), as: admin)
        }
        #expect(long?.messageKey == "kernel.error.text-too-long" && long?.messageArguments["field"] == "title")
        let newline = #expect(throws: InputError.self) {
            try fixture.run(StartConversation.self, .init(kind: .announcement, title: "Closed\ntomorrow", audience: "all"), as: admin)
        }
        #expect(newline?.messageKey == "kernel.error.text-control")
        #expect(try fixture.run(ListConversations.self, .init(), as: admin).count == before, "nothing started")
    }

    @Test("% and _ are letters, not wildcards, in search and in id prefixes; an empty id matches nothing")
    func likeWildcards() throws {
        let fixture = try MessagesFixture()
        let teacher = try fixture.account("teacher3@databayt.org")
        let conversation = try fixture.run(StartConversation.self, .init(kind: .direct, participants: ["parent@databayt.org"]), as: teacher).id
        let message = try fixture.run(SendMessage.self, .init(conversation: conversation, body: "Fees are 50% off"), as: teacher).message
        try fixture.run(SendMessage.self, .init(conversation: conversation, body: "Another note"), as: teacher)
        #expect(try fixture.run(SearchMessages.self, .init(query: "%"), as: teacher).map(\.message.id) == [message.id])
        #expect(try fixture.run(SearchMessages.self, .init(query: "_"), as: teacher).isEmpty)

        // As wildcards, these would each pick out exactly this conversation or message.
        let wildConversation = String(conversation.prefix(5)) + "_"
        let wildMessage = "%" + String(message.id.suffix(12))
        #expect(throws: MessagesError.unknownConversation(wildConversation)) {
            try fixture.run(ShowConversation.self, .init(conversation: wildConversation), as: teacher)
        }
        #expect(throws: MessagesError.unknownConversation("")) { try fixture.run(UpdateMembership.self, .init(conversation: "", markRead: true), as: teacher) }
        #expect(throws: MessagesError.unknownMessage(wildMessage)) { try fixture.run(DeleteMessage.self, .init(message: wildMessage), as: teacher) }
        #expect(try fixture.run(ShowConversation.self, .init(conversation: String(conversation.prefix(6))), as: teacher).messages.count == 2, "a real prefix still works")
    }
}
