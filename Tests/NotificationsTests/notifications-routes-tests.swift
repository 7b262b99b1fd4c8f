import Core
import Foundation
import HogwartsTestSupport
import Messages
@testable import Notifications
import Testing

/// The notifications routes (contract §9) as a phone uses them: the caller's own notifications
/// only, snake_case keys, and every refusal a client can meet.
@Suite("Notifications routes")
struct NotificationsRouteTests {
    /// The demo school with Messages, and `count` messages from a teacher to the parent: each one notifies the parent.
    static func inbox(_ count: Int) throws -> (fixture: NotificationsFixture, parent: Principal, teacher: Principal) {
        let fixture = try NotificationsFixture(modules: [MessagesModule()])
        let parent = try fixture.account("parent@databayt.org")
        let teacher = try fixture.account("teacher4@databayt.org")
        try fixture.run(MarkNotificationsRead.self, .init(), as: parent)
        let conversation = try fixture.run(StartConversation.self, .init(kind: .direct, participants: ["parent@databayt.org"]), as: teacher).id
        for index in 0..<count {
            fixture.clock.advance(minutes: 1)
            try fixture.run(SendMessage.self, .init(conversation: conversation, body: "Note \(index)"), as: teacher)
        }
        return (fixture, parent, teacher)
    }

    static func field(_ response: APITestResponse) -> String? {
        (response.object["details"] as? [[String: Any]])?.first?["field"] as? String
    }

    @Test("the list pages the caller's notifications in their language, with the contract's keys and the unread count")
    func list() async throws {
        let (fixture, parent, teacher) = try Self.inbox(3)
        try await fixture.harness.api { api in
            let page = try await api.get("/api/mobile/notifications?unread=true&per_page=2", as: parent, headers: ["Accept-Language": "en"])
            #expect(page.status == 200 && page.data.count == 2)
            #expect(page.object["total"] as? Int == 3 && page.object["unread_count"] as? Int == 3)
            #expect(page.object["page"] as? Int == 1 && page.object["per_page"] as? Int == 2)
            let newest = try #require(page.data.first)
            #expect(Set(newest.keys) == ["id", "type", "priority", "title", "body", "metadata", "is_read", "read_at", "created_at", "actor_name", "actor_avatar"])
            #expect(newest["type"] as? String == "MESSAGE" && newest["priority"] as? String == "NORMAL" && newest["body"] as? String == "Note 2")
            #expect((newest["title"] as? String)?.contains(teacher.displayName) == true && (newest["title"] as? String)?.hasPrefix("Message") == true)
            #expect((newest["metadata"] as? [String: Any])?["link"] as? String != nil)
            #expect(newest["is_read"] as? Bool == false && newest["read_at"] is NSNull && newest["actor_name"] is NSNull && newest["actor_avatar"] is NSNull)
            let second = try await api.get("/api/mobile/notifications?unread=true&per_page=2&page=2", as: parent)
            #expect(second.data.map { $0["body"] as? String } == ["Note 0"])
            let arabic = try await api.get("/api/mobile/notifications?per_page=1", as: parent)
            #expect((arabic.data.first?["title"] as? String)?.hasPrefix("Message") == false, "Arabic unless asked otherwise")
            #expect(try await api.get("/api/mobile/notifications", as: parent).object["per_page"] as? Int == 30)

            #expect(try await api.get("/api/mobile/notifications", as: teacher).data.allSatisfy { $0["body"] as? String != "Note 0" }, "only one's own")
            for query in ["unread=maybe", "page=0", "per_page=101", "page=x"] {
                let bad = try await api.get("/api/mobile/notifications?\(query)", as: parent)
                #expect(bad.status == 400 && bad.code == "INVALID_FIELD" && Self.field(bad) == String(query.prefix { $0 != "=" }), "\(query)")
            }
            #expect(try await api.get("/api/mobile/notifications").status == 401)
            #expect(try await api.get("/api/mobile/notifications", as: fixture.harness.user(.user, in: fixture.school)).status == 403)
            let other = fixture.harness.user(.admin, in: fixture.harness.school)
            #expect(try await api.get("/api/mobile/notifications", as: other).data.isEmpty, "another school sees none")
        }
    }

    @Test("read marks the caller's own; another user's, another school's or a random id is 404 alike and stays unread; read-all counts")
    func readAndReadAll() async throws {
        let (fixture, parent, teacher) = try Self.inbox(3)
        let notifications = try fixture.inbox(parent)
        let first = try #require(notifications.first)
        try await fixture.harness.api { api in
            let read = try await api.post("/api/mobile/notifications/\(first.id)/read", as: parent)
            #expect(read.status == 200 && read.object["success"] as? Bool == true)
            #expect(try await api.post("/api/mobile/notifications/\(first.id)/read", as: parent).status == 200, "again: never 404 for one's own")
            let listed = try await api.get("/api/mobile/notifications", as: parent).data.first { $0["id"] as? String == first.id }
            #expect(listed?["is_read"] as? Bool == true && (listed?["read_at"] as? String)?.hasSuffix("Z") == true)

            let second = notifications[1]
            let byTeacher = try await api.post("/api/mobile/notifications/\(second.id)/read", as: teacher)
            let unknown = try await api.post("/api/mobile/notifications/no-such-notification/read", as: teacher)
            #expect(byTeacher.status == 404 && byTeacher.code == "NOTIFICATIONS_UNKNOWN", "someone else's is not there")
            #expect(byTeacher.refusal(asked: second.id) == unknown.refusal(asked: "no-such-notification"), "and looks like no notification at all")
            let foreign = try await api.post("/api/mobile/notifications/\(second.id)/read", as: fixture.harness.user(.guardian, in: fixture.harness.school))
            #expect(foreign.refusal(asked: second.id) == unknown.refusal(asked: "no-such-notification"))
            let prefix = try await api.post("/api/mobile/notifications/\(second.id.prefix(8))/read", as: parent)
            #expect(prefix.status == 404, "the API names a notification by its whole id")
            #expect(try fixture.inbox(parent).map(\.id).contains(second.id), "not marked by others, nor by a prefix")

            let all = try await api.post("/api/mobile/notifications/read-all", as: parent)
            #expect(all.status == 200 && all.object["success"] as? Bool == true && all.object["count"] as? Int == 2)
            #expect(try await api.post("/api/mobile/notifications/read-all", as: parent).object["count"] as? Int == 0)
            #expect(try await api.post("/api/mobile/notifications/read-all").status == 401)
            #expect(try await api.post("/api/mobile/notifications/\(first.id)/read").status == 401)
            let control = try await api.post("/api/mobile/notifications/bad%07id/read", as: parent)
            #expect(control.status == 400 && Self.field(control) == "notificationId")
        }
    }

    @Test("delete removes the caller's own; someone else's or a random id is untouched and 404 alike; deleting twice is 404")
    func delete() async throws {
        let (fixture, parent, teacher) = try Self.inbox(2)
        let notifications = try fixture.inbox(parent)
        try await fixture.harness.api { api in
            let byTeacher = try await api.delete("/api/mobile/notifications/\(notifications[0].id)", as: teacher)
            let foreign = try await api.delete("/api/mobile/notifications/\(notifications[0].id)", as: fixture.harness.user(.admin, in: fixture.harness.school))
            let random = UUID().uuidString
            let unknown = try await api.delete("/api/mobile/notifications/\(random)", as: teacher)
            #expect(byTeacher.status == 404 && byTeacher.code == "NOTIFICATIONS_UNKNOWN" && foreign.status == 404)
            #expect(byTeacher.refusal(asked: notifications[0].id) == unknown.refusal(asked: random), "someone else's reads like none")
            #expect(try fixture.inbox(parent).count == 2, "nothing deleted by others")
            let deleted = try await api.delete("/api/mobile/notifications/\(notifications[0].id)", as: parent)
            #expect(deleted.status == 200 && deleted.object["success"] as? Bool == true)
            #expect(try fixture.inbox(parent).map(\.id) == [notifications[1].id])
            #expect(try await api.delete("/api/mobile/notifications/\(notifications[0].id)", as: parent).status == 404, "deleted: no longer there")
            #expect(try await api.delete("/api/mobile/notifications/\(notifications[1].id)").status == 401)
            #expect(try await api.delete("/api/mobile/notifications/\(notifications[1].id)", as: fixture.harness.user(.user, in: fixture.school)).status == 403)
        }
    }

    @Test("preferences: defaults when none are stored; changes per type and channel; in_app off stops notifications; bad input names the field")
    func preferences() async throws {
        let (fixture, parent, teacher) = try Self.inbox(0)
        try await fixture.harness.api { api in
            let empty = try await api.get("/api/mobile/notifications/preferences", as: parent)
            #expect(empty.status == 200 && empty.data.isEmpty)
            let defaults = try #require(empty.object["defaults"] as? [String: Any])
            #expect(defaults["in_app"] as? Bool == true && defaults["sms"] as? Bool == false)
            #expect(defaults["quiet_hours_start"] as? Int == 22 && defaults["quiet_hours_end"] as? Int == 7)

            let changes: [[String: Any]] = [["type": "message", "channel": "in_app", "enabled": false], ["type": "ATTENDANCE_ALERT", "channel": "push", "enabled": false]]
            let put = try await api.put("/api/mobile/notifications/preferences", as: parent, json: ["preferences": changes])
            #expect(put.status == 200 && put.object["success"] as? Bool == true && put.object["updated_count"] as? Int == 2)
            let stored = try await api.get("/api/mobile/notifications/preferences", as: parent)
            #expect(stored.object["defaults"] == nil)
            #expect(Set(stored.data.map { "\($0["type"] as? String ?? ""):\($0["channel"] as? String ?? "")" }) == ["MESSAGE:in_app", "ATTENDANCE_ALERT:push"])
            let message = try #require(stored.data.first { $0["type"] as? String == "MESSAGE" })
            #expect(Set(message.keys) == ["id", "type", "channel", "enabled", "quiet_hours_start", "quiet_hours_end", "digest_enabled", "digest_frequency"])
            #expect(message["enabled"] as? Bool == false && message["quiet_hours_start"] is NSNull && message["digest_enabled"] as? Bool == false)

            let conversation = try fixture.run(StartConversation.self, .init(kind: .direct, participants: ["parent@databayt.org"]), as: teacher).id
            try fixture.run(SendMessage.self, .init(conversation: conversation, body: "Quiet please"), as: teacher)
            #expect(try fixture.inbox(parent).allSatisfy { $0.type != .message }, "in_app off: no message notification")
            try fixture.run(NotificationPreferences.self, .init(type: "MESSAGE", quietHours: "21:30-07:00"), as: parent)
            let quiet = try await api.get("/api/mobile/notifications/preferences", as: parent).data.first { $0["type"] as? String == "MESSAGE" }
            #expect(quiet?["quiet_hours_start"] as? Int == 21 && quiet?["quiet_hours_end"] as? Int == 7)
            #expect(try await api.get("/api/mobile/notifications/preferences", as: teacher).data.isEmpty, "only one's own")

            for (body, field) in [([String: Any](), "preferences"), (["preferences": "all"], "preferences"),
                                  (["preferences": [["type": "gossip", "channel": "push", "enabled": true]]], "preferences[0].type"),
                                  (["preferences": [["type": "message", "channel": "pigeon", "enabled": true]]], "preferences[0].channel"),
                                  (["preferences": [["type": "message", "channel": "push"]]], "preferences[0].enabled")] as [([String: Any], String)] {
                let refused = try await api.put("/api/mobile/notifications/preferences", as: parent, json: body)
                #expect(refused.status == 400 && refused.code == "INVALID_FIELD" && Self.field(refused) == field, "\(body): \(refused.text)")
            }
            let tooMany = Array(repeating: ["type": "message", "channel": "push", "enabled": true] as [String: Any], count: 101)
            #expect(try await api.put("/api/mobile/notifications/preferences", as: parent, json: ["preferences": tooMany]).status == 400)
            #expect(try await api.get("/api/mobile/notifications/preferences").status == 401)
            #expect(try await api.put("/api/mobile/notifications/preferences", json: ["preferences": changes]).status == 401)
        }
    }

    @Test("register keeps the token; a platform retires the user's other tokens; a phone signed in by someone else moves to them")
    func register() async throws {
        let (fixture, parent, teacher) = try Self.inbox(0)
        try await fixture.harness.api { api in
            let first = try await api.post("/api/mobile/notifications/register", as: parent, json: ["device_token": "token-a"])
            #expect(first.status == 200 && first.object["success"] as? Bool == true)
            _ = try await api.post("/api/mobile/notifications/register", as: parent, json: ["device_token": "token-b"])
            #expect(try fixture.run(ListDevices.self, .init(), as: parent).filter(\.active).count == 2, "no platform: both kept")
            _ = try await api.post("/api/mobile/notifications/register", as: parent, json: ["device_token": "token-c", "platform": "ios"])
            let devices = try fixture.run(ListDevices.self, .init(), as: parent)
            #expect(devices.filter(\.active).map(\.token) == ["token-c"] && devices.first?.platform == .ios && devices.count == 3)

            _ = try await api.post("/api/mobile/notifications/register", as: teacher, json: ["device_token": "token-c", "platform": "android"])
            #expect(try fixture.run(ListDevices.self, .init(), as: parent).allSatisfy { $0.token != "token-c" })
            #expect(try fixture.run(ListDevices.self, .init(), as: teacher).map(\.token) == ["token-c"])

            for (body, field) in [([String: Any](), "device_token"), (["device_token": ""], "device_token"), (["device_token": "  "], "device_token"),
                                  (["device_token": "a\u{1B}b"], "device_token"), (["device_token": 42], "device_token"),
                                  (["device_token": "t", "platform": "windows"], "platform")] as [([String: Any], String)] {
                let refused = try await api.post("/api/mobile/notifications/register", as: parent, json: body)
                #expect(refused.status == 400 && refused.code == "INVALID_FIELD" && Self.field(refused) == field, "\(body): \(refused.text)")
            }
            #expect(try await api.post("/api/mobile/notifications/register", json: ["device_token": "t"]).status == 401)
            #expect(try await api.post("/api/mobile/notifications/register", as: fixture.harness.user(.user, in: fixture.school), json: ["device_token": "t"]).status == 403)
        }
    }

    @Test("the dashboard and the admin stats count the caller's unread notifications")
    func dashboard() async throws {
        let (fixture, parent, _) = try Self.inbox(2)
        let admin = try fixture.account("admin@databayt.org")
        try await fixture.harness.api { api in
            #expect(try await api.get("/api/mobile/dashboard", as: parent).object["unread_notifications"] as? Int == 2)
            let expected = try fixture.run(ListNotifications.self, .init(unreadOnly: true), as: admin).unread
            #expect(try await api.get("/api/mobile/admin/stats", as: admin).object["unread_notifications"] as? Int == expected)
        }
    }

    @Test("every route refuses a caller without a token (401), a role without notifications (403), and answers 404 where the school switched them off")
    func everyRouteRefuses() async throws {
        let (fixture, parent, _) = try Self.inbox(1)
        let notification = try #require(try fixture.inbox(parent).first?.id)
        let outsider = fixture.harness.user(.user, in: fixture.school)
        try await fixture.harness.api { api in
            let routes: [(String, String, [String: Any])] = [
                ("GET", "/api/mobile/notifications", [:]), ("POST", "/api/mobile/notifications/\(notification)/read", [:]),
                ("POST", "/api/mobile/notifications/read-all", [:]), ("DELETE", "/api/mobile/notifications/\(notification)", [:]),
                ("GET", "/api/mobile/notifications/preferences", [:]), ("PUT", "/api/mobile/notifications/preferences", ["preferences": [[String: Any]]()]),
                ("POST", "/api/mobile/notifications/register", ["device_token": "t"]),
            ]
            for (method, path, body) in routes {
                #expect(try await api.call(method, path, as: nil, body).status == 401, "\(method) \(path)")
                #expect(try await api.call(method, path, as: outsider, body).status == 403, "\(method) \(path)")
            }
            _ = try fixture.harness.kernel.disable("notifications", for: fixture.school.id, cascade: true, by: .localOperator)
            for (method, path, body) in routes {
                let off = try await api.call(method, path, as: parent, body)
                #expect(off.status == 404 && off.code?.hasSuffix("MODULE_DISABLED") == true, "\(method) \(path)")
            }
            #expect(try await api.get("/api/mobile/dashboard", as: parent).object["unread_notifications"] == nil)
        }
    }
}
