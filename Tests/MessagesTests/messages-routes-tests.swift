import Auth
import Core
import Foundation
import HogwartsTestSupport
import Messages
import Testing

/// The conversations and messages routes (contract §8) as a phone uses them, on the demo school:
/// camelCase answers, snake_case bodies, and every refusal a client can meet.
@Suite("Messages routes")
struct MessagesRouteTests {
    /// The demo school's conversation between the parent and the homeroom teacher, and the parent.
    static func parentChat(_ fixture: MessagesFixture) throws -> (parent: Principal, teacher: Principal, conversation: String) {
        let parent = try fixture.account("parent@databayt.org")
        let teacher = try fixture.account("teacher@databayt.org")
        let direct = try #require(try fixture.run(ListConversations.self, .init(kind: .direct), as: parent).first)
        return (parent, teacher, direct.id)
    }

    /// An account of the other demo school (nile).
    static func nileAdmin(_ fixture: MessagesFixture) throws -> Principal {
        let nile = try fixture.harness.kernel.school("nile")
        let result = try fixture.harness.kernel.run(SignIn.self, .init(email: "admin@nile.databayt.org", password: AuthDemo.password), as: .anonymous, in: nile.id)
        let user = try #require(result.user)
        return Principal(userID: user.id, role: user.role, schoolID: nile.id, displayName: user.displayName)
    }

    @Test("the conversation list has the contract's camelCase keys, the newest message, unread counts and a type filter")
    func listConversations() async throws {
        let fixture = try MessagesFixture()
        let (parent, teacher, direct) = try Self.parentChat(fixture)
        let nile = try Self.nileAdmin(fixture)
        try await fixture.harness.api { api in
            let listed = try await api.get("/api/mobile/conversations", as: parent)
            #expect(listed.status == 200)
            let expected = try fixture.run(ListConversations.self, .init(), as: parent)
            #expect(listed.object["total"] as? Int == expected.count && listed.data.map { $0["id"] as? String } == expected.map(\.id))
            let chat = try #require(listed.data.first { $0["id"] as? String == direct })
            #expect(Set(chat.keys) == ["id", "type", "title", "avatarUrl", "unreadCount", "isPinned", "isMuted", "whatsappEnabled", "updatedAt", "lastMessage"])
            #expect(chat["type"] as? String == "direct" && chat["title"] as? String == teacher.displayName, "a direct chat is titled with the other person")
            #expect(chat["avatarUrl"] is NSNull && chat["isPinned"] as? Bool == false && chat["whatsappEnabled"] as? Bool == false)
            #expect(chat["unreadCount"] as? Int == 1, "the teacher's answer is unread")
            #expect((chat["updatedAt"] as? String)?.hasSuffix("Z") == true)
            let last = try #require(chat["lastMessage"] as? [String: Any])
            #expect(Set(last.keys) == ["id", "content", "senderName", "status", "sentAt"])
            #expect(last["senderName"] as? String == teacher.displayName && last["status"] as? String == "sent")

            let announcements = try await api.get("/api/mobile/conversations?type=announcement", as: parent)
            #expect(announcements.data.map { $0["type"] as? String } == ["announcement"])
            let badType = try await api.get("/api/mobile/conversations?type=secret", as: parent, headers: ["Accept-Language": "en"])
            #expect(badType.status == 400 && badType.code == "INVALID_FIELD" && badType.text.contains("type"))

            #expect(try await api.get("/api/mobile/conversations").status == 401)
            #expect(try await api.get("/api/mobile/conversations", as: fixture.harness.user(.user, in: fixture.school)).status == 403)
            #expect(try await api.get("/api/mobile/conversations", as: nile).data.isEmpty, "another school sees none of ours")
        }
    }

    @Test("starting: 201 with a new id, 200 with the existing direct chat; bad input names the field; unknown and foreign people are 404")
    func startConversation() async throws {
        let fixture = try MessagesFixture()
        let staff = try fixture.account("staff@databayt.org")
        let teacher = try fixture.account("teacher2@databayt.org")
        let parent = try fixture.account("parent@databayt.org")
        let nile = try Self.nileAdmin(fixture)
        try await fixture.harness.api { api in
            let document = try await api.get("/openapi.json").object
            let start = (document["paths"] as? [String: [String: Any]])?["/api/mobile/conversations"]?["post"] as? [String: Any]
            #expect(Set((start?["responses"] as? [String: Any] ?? [:]).keys) == ["201", "200", "default"])
            let created = try await api.post("/api/mobile/conversations", as: staff, json: ["participant_ids": [teacher.userID]])
            #expect(created.status == 201)
            let id = try #require(created.object["id"] as? String)
            let again = try await api.post("/api/mobile/conversations", as: teacher, json: ["participant_ids": [staff.userID], "type": "direct"])
            #expect(again.status == 200 && again.object["id"] as? String == id, "one direct chat per pair, whoever starts it")
            let group = try await api.post("/api/mobile/conversations", as: staff, json: ["participant_ids": [teacher.userID, parent.userID], "type": "group", "title": "Trip"])
            #expect(group.status == 201 && group.object["id"] as? String != id)

            for (body, field) in [([String: Any](), "participant_ids"), (["participant_ids": "x"], "participant_ids"),
                                  (["participant_ids": [String]()], "participant_ids"), (["participant_ids": [teacher.userID], "type": "channel"], "type"),
                                  (["participant_ids": [7]], "participant_ids[0]")] as [([String: Any], String)] {
                let refused = try await api.post("/api/mobile/conversations", as: staff, json: body)
                #expect(refused.status == 400 && refused.code == "INVALID_FIELD", "\(body)")
                #expect((refused.object["details"] as? [[String: Any]])?.first?["field"] as? String == field, "\(body)")
            }
            #expect(try await api.request(.post, "/api/mobile/conversations", as: staff, raw: "{not json").code == "MALFORMED_JSON")
            let noTitle = try await api.post("/api/mobile/conversations", as: staff, json: ["participant_ids": [teacher.userID], "type": "group"])
            #expect(noTitle.status == 400 && noTitle.code == "MESSAGES_TITLE_REQUIRED")
            let two = try await api.post("/api/mobile/conversations", as: staff, json: ["participant_ids": [teacher.userID, parent.userID]])
            #expect(two.status == 400 && two.code == "MESSAGES_DIRECT_NEEDS_ONE")
            #expect(try await api.post("/api/mobile/conversations", as: staff, json: ["participant_ids": [staff.userID]]).code == "MESSAGES_DIRECT_NEEDS_ONE",
                    "not with oneself")

            let unknown = try await api.post("/api/mobile/conversations", as: staff, json: ["participant_ids": ["no-such-user"]])
            let foreign = try await api.post("/api/mobile/conversations", as: staff, json: ["participant_ids": [nile.userID]])
            #expect(unknown.status == 404 && foreign.status == 404 && foreign.code == unknown.code, "another school's account is as unknown as none")
            let guardianGroup = try await api.post("/api/mobile/conversations", as: parent, json: ["participant_ids": [teacher.userID], "type": "group", "title": "x"])
            #expect(guardianGroup.status == 403 && guardianGroup.code == "MESSAGES_CANNOT_START")
            let accountant = try fixture.account("accountant@databayt.org")
            #expect(try await api.post("/api/mobile/conversations", as: accountant, json: ["participant_ids": [teacher.userID]]).status == 403)
            #expect(try await api.post("/api/mobile/conversations", json: ["participant_ids": [teacher.userID]]).status == 401)
        }
    }

    @Test("a page is newest first with a cursor; only participants read it; another school's conversation is 404")
    func pageMessages() async throws {
        let fixture = try MessagesFixture()
        let (parent, teacher, direct) = try Self.parentChat(fixture)
        let staff = try fixture.account("staff@databayt.org")
        let nile = try Self.nileAdmin(fixture)
        try await fixture.harness.api { api in
            let first = try await api.get("/api/mobile/conversations/\(direct)/messages?limit=1", as: parent)
            #expect(first.status == 200 && first.data.count == 1)
            let newest = try #require(first.data.first)
            #expect(Set(newest.keys) == ["id", "conversationId", "senderId", "senderName", "senderAvatarUrl", "content", "contentType", "status", "sentAt",
                                         "isRead", "isEdited", "isDeleted", "replyToId", "nonce", "whatsappStatus", "attachments"])
            #expect(newest["senderId"] as? String == teacher.userID && newest["conversationId"] as? String == direct)
            #expect(newest["contentType"] as? String == "text" && (newest["attachments"] as? [Any])?.isEmpty == true)
            #expect(newest["isRead"] as? Bool == false && newest["nonce"] is NSNull && newest["replyToId"] is NSNull && newest["senderAvatarUrl"] is NSNull)
            let cursor = try #require(first.object["next_cursor"] as? String)
            #expect(cursor == newest["id"] as? String)
            let second = try await api.get("/api/mobile/conversations/\(direct)/messages?limit=1&cursor=\(cursor)", as: parent)
            #expect(second.data.first?["senderId"] as? String == parent.userID, "the parent's question came first")
            #expect(second.data.first?["status"] as? String == "read" && second.data.first?["isRead"] as? Bool == true, "the teacher has answered it")
            let last = try await api.get("/api/mobile/conversations/\(direct)/messages?cursor=\(try #require(second.object["next_cursor"] as? String))", as: parent)
            #expect(last.data.isEmpty && last.object["next_cursor"] is NSNull)
            #expect(try await api.get("/api/mobile/conversations/\(direct)/messages", as: parent).object["next_cursor"] is NSNull, "a page that is not full")

            let outsider = try await api.get("/api/mobile/conversations/\(direct)/messages", as: staff)
            #expect(outsider.status == 404 && outsider.code == "MESSAGES_UNKNOWN_CONVERSATION", "someone else's conversation is not there")
            let unknown = UUID().uuidString
            let nowhere = try await api.get("/api/mobile/conversations/\(unknown)/messages", as: staff)
            #expect(outsider.refusal(asked: direct) == nowhere.refusal(asked: unknown), "no hint that it exists")
            let foreign = try await api.get("/api/mobile/conversations/\(direct)/messages", as: nile)
            let missing = try await api.get("/api/mobile/conversations/no-such-conversation/messages", as: parent)
            #expect(foreign.status == 404 && missing.status == 404 && foreign.code == missing.code && !foreign.text.contains("امتحان"))
            for query in ["limit=0", "limit=101", "limit=ten", "cursor=not-a-message"] {
                let bad = try await api.get("/api/mobile/conversations/\(direct)/messages?\(query)", as: parent)
                let field = String(query.prefix { $0 != "=" })
                #expect(bad.status == 400 && bad.code == "INVALID_FIELD" && (bad.object["details"] as? [[String: Any]])?.first?["field"] as? String == field, "\(query)")
            }
            #expect(try await api.get("/api/mobile/conversations/\(direct)/messages").status == 401)
        }
    }

    @Test("send answers the message; a repeated nonce answers {id, deduplicated} and stores nothing; bad content names the field")
    func sendMessage() async throws {
        let fixture = try MessagesFixture()
        let (parent, teacher, direct) = try Self.parentChat(fixture)
        let nile = try Self.nileAdmin(fixture)
        try await fixture.harness.api { api in
            let path = "/api/mobile/conversations/\(direct)/messages"
            let sent = try await api.post(path, as: teacher, json: ["content": "See you Sunday", "nonce": "phone-1"])
            #expect(sent.status == 200)
            let id = try #require(sent.object["id"] as? String)
            #expect(sent.object["content"] as? String == "See you Sunday" && sent.object["nonce"] as? String == "phone-1")
            #expect(sent.object["status"] as? String == "sent" && sent.object["isRead"] as? Bool == false && sent.object["replyToId"] is NSNull)
            #expect(sent.object["deduplicated"] == nil)
            let retry = try await api.post(path, as: teacher, json: ["content": "See you Sunday", "nonce": "phone-1"])
            #expect(retry.status == 200 && retry.object["id"] as? String == id && retry.object["deduplicated"] as? Bool == true)
            #expect(Set(retry.object.keys) == ["id", "deduplicated"])
            let samenonce = try await api.post(path, as: parent, json: ["content": "Thanks", "nonce": "phone-1"])
            #expect(samenonce.object["deduplicated"] == nil && samenonce.object["id"] as? String != id, "a nonce is the sender's own")
            let page = try await api.get(path, as: parent)
            #expect(page.data.count == 4, "two demo messages, one from each: the retry stored nothing")
            #expect(page.data.first { $0["id"] as? String == id }?["nonce"] is NSNull, "the parent does not see the teacher's nonce")

            let reply = try await api.post(path, as: parent, json: ["content": "Which time?", "reply_to_id": id])
            #expect(reply.object["replyToId"] as? String == id)

            for (body, field) in [(["content": "   "], "content"), ([:], "content"), (["content": String(repeating: "x", count: 4001)], "content"),
                                  (["content": "a\u{1B}[2J"], "content"), (["content": 5], "content"), (["content": "hi", "nonce": "n\u{7}"], "nonce"),
                                  (["content": "hi", "reply_to_id": "no-such-message"], "reply_to_id")] as [([String: Any], String)] {
                let refused = try await api.post(path, as: teacher, json: body)
                #expect(refused.status == 400 && (refused.object["details"] as? [[String: Any]])?.first?["field"] as? String == field, "\(body): \(refused.text)")
            }
            #expect(try await api.get(path, as: parent).data.count == 5, "nothing refused was stored")

            let admin = try fixture.account("admin@databayt.org")
            let announcement = try #require(try fixture.run(ListConversations.self, .init(kind: .announcement), as: admin).first?.id)
            let readOnly = try await api.post("/api/mobile/conversations/\(announcement)/messages", as: parent, json: ["content": "Thanks"])
            #expect(readOnly.status == 403 && readOnly.code == "MESSAGES_READ_ONLY")
            let staff = try fixture.account("staff@databayt.org")
            #expect(try await api.post(path, as: staff, json: ["content": "hi"]).code == "MESSAGES_UNKNOWN_CONVERSATION")
            #expect(try await api.post(path, as: nile, json: ["content": "hi"]).status == 404)
            #expect(try await api.post(path, json: ["content": "hi"]).status == 401)
        }
    }

    @Test("read and mute answer {success: true} for participants only")
    func readAndMute() async throws {
        let fixture = try MessagesFixture()
        let (parent, _, direct) = try Self.parentChat(fixture)
        let staff = try fixture.account("staff@databayt.org")
        let nile = try Self.nileAdmin(fixture)
        try await fixture.harness.api { api in
            let read = try await api.post("/api/mobile/conversations/\(direct)/read", as: parent)
            #expect(read.status == 200 && read.object["success"] as? Bool == true)
            func chat() async throws -> [String: Any]? {
                try await api.get("/api/mobile/conversations?type=direct", as: parent).data.first { $0["id"] as? String == direct }
            }
            #expect(try await chat()?["unreadCount"] as? Int == 0)
            #expect(try await api.post("/api/mobile/conversations/\(direct)/mute", as: parent).object["success"] as? Bool == true)
            #expect(try await chat()?["isMuted"] as? Bool == true, "no body mutes")
            _ = try await api.post("/api/mobile/conversations/\(direct)/mute", as: parent, json: ["muted": false])
            #expect(try await chat()?["isMuted"] as? Bool == false)
            let bad = try await api.post("/api/mobile/conversations/\(direct)/mute", as: parent, json: ["muted": "yes"])
            #expect(bad.status == 400 && bad.code == "INVALID_FIELD")

            #expect(try await api.post("/api/mobile/conversations/\(direct)/read", as: staff).status == 404, "not a participant: not there")
            #expect(try await api.post("/api/mobile/conversations/\(direct)/mute", as: staff).status == 404)
            #expect(try await api.post("/api/mobile/conversations/\(direct)/read", as: nile).status == 404)
            #expect(try await api.post("/api/mobile/conversations/\(direct)/read").status == 401)
        }
    }

    @Test("edit: the sender within 15 minutes; delete: the sender or the conversation's owner, kept as deleted")
    func editAndDelete() async throws {
        let fixture = try MessagesFixture()
        let teacher = try fixture.account("teacher@databayt.org")
        let parent = try fixture.account("parent@databayt.org")
        let staff = try fixture.account("staff@databayt.org")
        let nile = try Self.nileAdmin(fixture)
        let classChat = try fixture.run(StartConversation.self, .init(kind: .class, title: "7A", classCode: "7A"), as: teacher).id
        let message = try fixture.run(SendMessage.self, .init(conversation: classChat, body: "Trip on Sunday"), as: parent).message.id
        let direct = try #require(try fixture.run(ListConversations.self, .init(kind: .direct), as: parent).first?.id)
        try await fixture.harness.api { api in
            let path = "/api/mobile/conversations/\(classChat)/messages/\(message)"
            #expect(try await api.patch(path, as: teacher, json: ["content": "x"]).code == "MESSAGES_NOT_SENDER")
            let edited = try await api.patch(path, as: parent, json: ["content": "Trip on Monday"])
            #expect(edited.status == 200 && edited.object["success"] as? Bool == true)
            let shown = try await api.get("/api/mobile/conversations/\(classChat)/messages", as: teacher).data.first { $0["id"] as? String == message }
            #expect(shown?["content"] as? String == "Trip on Monday" && shown?["isEdited"] as? Bool == true)
            let blank = try await api.patch(path, as: parent, json: ["content": " "])
            #expect(blank.status == 400 && (blank.object["details"] as? [[String: Any]])?.first?["field"] as? String == "content")
            #expect(try await api.patch("/api/mobile/conversations/\(direct)/messages/\(message)", as: parent, json: ["content": "y"]).status == 404,
                    "the message is not in that conversation")
            fixture.clock.advance(minutes: 16)
            #expect(try await api.patch(path, as: parent, json: ["content": "late"]).code == "MESSAGES_EDIT_WINDOW")

            #expect(try await api.delete(path, as: staff).code == "MESSAGES_UNKNOWN_CONVERSATION")
            #expect(try await api.delete(path, as: nile).status == 404)
            #expect(try await api.delete(path).status == 401)
            let deleted = try await api.delete(path, as: teacher)
            #expect(deleted.status == 200 && deleted.object["success"] as? Bool == true, "the class conversation's owner")
            let gone = try await api.get("/api/mobile/conversations/\(classChat)/messages", as: parent).data.first { $0["id"] as? String == message }
            #expect(gone?["isDeleted"] as? Bool == true && gone?["content"] as? String == "")
            #expect(try await api.patch(path, as: parent, json: ["content": "back"]).status == 404, "a deleted message is not edited")

            let own = try await api.post("/api/mobile/conversations/\(classChat)/messages", as: parent, json: ["content": "Mine"])
            let ownID = try #require(own.object["id"] as? String)
            let other = try fixture.account("student@databayt.org")
            let notSender = try await api.delete("/api/mobile/conversations/\(classChat)/messages/\(ownID)", as: other)
            #expect(notSender.status == 403 && notSender.code == "MESSAGES_NOT_SENDER", "a member who is not the sender")
            #expect(try await api.delete("/api/mobile/conversations/\(classChat)/messages/\(ownID)", as: parent).status == 200)
        }
    }

    @Test("search in one conversation and in all: Arabic-aware, q of 2 characters or more, limit up to 100, participants only")
    func search() async throws {
        let fixture = try MessagesFixture()
        let (parent, teacher, direct) = try Self.parentChat(fixture)
        let staff = try fixture.account("staff@databayt.org")
        try await fixture.harness.api { api in
            let query = try #require("الامتحان".addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed))
            let inChat = try await api.get("/api/mobile/conversations/\(direct)/messages/search?q=\(query)", as: parent)
            #expect(inChat.status == 200 && inChat.data.count == 1 && inChat.object["total"] as? Int == 1)
            #expect(Set(try #require(inChat.data.first).keys) == ["id", "senderId", "senderName", "content", "sentAt"])
            #expect(inChat.data.first?["senderId"] as? String == teacher.userID)

            let everywhere = try await api.get("/api/mobile/messages/search?q=\(query)", as: parent)
            let hit = try #require(everywhere.data.first)
            #expect(hit["conversationId"] as? String == direct && hit["conversationType"] as? String == "direct")
            #expect(hit["conversationTitle"] as? String == teacher.displayName)
            #expect(try await api.get("/api/mobile/messages/search?q=\(query)", as: staff).data.isEmpty, "not in the staff member's conversations")

            for path in ["/api/mobile/messages/search?q=a", "/api/mobile/messages/search", "/api/mobile/messages/search?q=ab&limit=101",
                         "/api/mobile/conversations/\(direct)/messages/search?q=%20%20x", "/api/mobile/conversations/\(direct)/messages/search?q=ab&limit=0"] {
                let bad = try await api.get(path, as: parent)
                #expect(bad.status == 400 && bad.code == "INVALID_FIELD", "\(path)")
            }
            #expect(try await api.get("/api/mobile/conversations/\(direct)/messages/search?q=\(query)", as: staff).status == 404)
            #expect(try await api.get("/api/mobile/messages/search?q=ab").status == 401)
        }
    }

    @Test("the dashboard counts unread messages for everyone; the admin stats count the school's conversations, for admins only")
    func dashboard() async throws {
        let fixture = try MessagesFixture()
        let (parent, _, _) = try Self.parentChat(fixture)
        let admin = try fixture.account("admin@databayt.org")
        try await fixture.harness.api { api in
            let dashboard = try await api.get("/api/mobile/dashboard", as: parent)
            let unread = try fixture.run(ListConversations.self, .init(), as: parent).reduce(0) { $0 + $1.unread }
            #expect(unread > 0 && dashboard.status == 200 && dashboard.object["unread_messages"] as? Int == unread)
            let stats = try await api.get("/api/mobile/admin/stats", as: admin)
            #expect(stats.status == 200 && stats.object["active_conversations"] as? Int == 3)
            #expect(try await api.get("/api/mobile/admin/stats", as: parent).status == 403)
        }
    }

    @Test("every route refuses a caller without a token (401), a role without messages (403), and answers 404 where the school switched Messages off")
    func everyRouteRefuses() async throws {
        let fixture = try MessagesFixture()
        let (parent, _, direct) = try Self.parentChat(fixture)
        let message = try #require(try fixture.run(PageMessages.self, .init(conversation: direct), as: parent).messages.first?.message.id)
        let outsider = fixture.harness.user(.user, in: fixture.school)
        try await fixture.harness.api { api in
            let routes: [(String, String, [String: Any])] = [
                ("GET", "/api/mobile/conversations", [:]), ("POST", "/api/mobile/conversations", ["participant_ids": [parent.userID]]),
                ("GET", "/api/mobile/conversations/\(direct)/messages", [:]), ("POST", "/api/mobile/conversations/\(direct)/messages", ["content": "hi"]),
                ("POST", "/api/mobile/conversations/\(direct)/read", [:]), ("POST", "/api/mobile/conversations/\(direct)/mute", [:]),
                ("PATCH", "/api/mobile/conversations/\(direct)/messages/\(message)", ["content": "x"]),
                ("DELETE", "/api/mobile/conversations/\(direct)/messages/\(message)", [:]),
                ("GET", "/api/mobile/conversations/\(direct)/messages/search?q=ab", [:]), ("GET", "/api/mobile/messages/search?q=ab", [:]),
            ]
            for (method, path, body) in routes {
                #expect(try await api.call(method, path, as: nil, body).status == 401, "\(method) \(path)")
                #expect(try await api.call(method, path, as: outsider, body).status == 403, "\(method) \(path)")
            }
            _ = try fixture.harness.kernel.disable("messages", for: fixture.school.id, cascade: true, by: .localOperator)
            for (method, path, body) in routes {
                let off = try await api.call(method, path, as: parent, body)
                #expect(off.status == 404 && off.code?.hasSuffix("MODULE_DISABLED") == true, "\(method) \(path)")
            }
            #expect(try await api.get("/api/mobile/dashboard", as: parent).object["unread_messages"] == nil)
        }
    }
}
