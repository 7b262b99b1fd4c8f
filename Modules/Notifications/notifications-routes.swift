import Core
import Foundation

/// `/api/mobile/notifications` (contract §9, snake_case): the caller's own notifications, their
/// preferences per channel, and device registration. Everything here is the caller's own: a
/// notification of someone else is neither changed nor revealed, whatever its id.
enum NotificationsRoutes {
    static var all: [APIRoute] { [list, markRead, markAllRead, delete, preferences, setPreferences, register] }

    // MARK: Notifications

    private static var list: APIRoute {
        APIRoute(.get, "/api/mobile/notifications", summary: "The caller's notifications, newest first, in the request's language",
                 query: APIParameter.paging + [APIParameter("unread", .boolean)],
                 response: .of(NotificationPage.self)) { request in
            let paging = try request.paging(defaultPerPage: 30)
            let unreadOnly = try request.queryBool("unread") ?? false
            let output = try await request.run(ListNotifications.self, .init(unreadOnly: unreadOnly, offset: paging.offset, limit: paging.perPage))
            let language = request.language
            return try .json(NotificationPage(data: output.notifications.map { NotificationItem($0, language: language) }, total: output.total,
                                              unreadCount: output.unread, page: paging.page, perPage: paging.perPage))
        }
    }

    /// `{success: true}` for the caller's own (read already or not); any other id is 404, as one that does not exist.
    private static var markRead: APIRoute {
        APIRoute(.post, "/api/mobile/notifications/:notificationId/read", summary: "Marks one of the caller's notifications read",
                 response: .success) { request in
            let notification = try request.parameter("notificationId")
            _ = try await request.run(MarkNotificationsRead.self, .init(notification: notification, exact: true))
            return try .success()
        }
    }

    private static var markAllRead: APIRoute {
        APIRoute(.post, "/api/mobile/notifications/read-all", summary: "Marks all of the caller's notifications read",
                 response: .of(Marked.self)) { request in
            let count = try await request.run(MarkNotificationsRead.self, .init())
            return try .json(Marked(success: true, count: count))
        }
    }

    /// `{success: true}` for the caller's own; anyone else's, another school's or a random id is 404 alike.
    private static var delete: APIRoute {
        APIRoute(.delete, "/api/mobile/notifications/:notificationId", summary: "Deletes one of the caller's notifications",
                 response: .success) { request in
            let notification = try request.parameter("notificationId")
            _ = try await request.run(DeleteNotification.self, .init(notification: notification))
            return try .success()
        }
    }

    // MARK: Preferences and devices

    private static var preferences: APIRoute {
        APIRoute(.get, "/api/mobile/notifications/preferences", summary: "The caller's choices per type and channel (defaults when none)",
                 response: .of(PreferenceList.self)) { request in
            let stored = try await request.run(ChannelPreferences.self, .init())
            return try .json(PreferenceList(data: stored.map(PreferenceItem.init), defaults: stored.isEmpty ? .contract : nil))
        }
    }

    struct PreferenceChanges: Decodable {
        struct Change: Decodable {
            let type: KnownType
            let channel: NotificationChannel
            let enabled: Bool
        }

        let preferences: [Change]
    }

    private static var setPreferences: APIRoute {
        let change: APISchema = .object([("type", .values(NotificationType.known.map(\.rawValue))), ("channel", .values(of: NotificationChannel.self)),
                                         ("enabled", .boolean)])
        return APIRoute(.put, "/api/mobile/notifications/preferences", summary: "Switches notification types on or off per channel",
                        body: .object([("preferences", .array(change))]),
                        response: .of(Updated.self)) { request in
            let body = try request.decode(PreferenceChanges.self)
            let changes = body.preferences.map { SetChannelPreferences.Change(type: $0.type.value, channel: $0.channel, enabled: $0.enabled) }
            let count = try await request.run(SetChannelPreferences.self, .init(changes: changes))
            return try .json(Updated(success: true, updatedCount: count))
        }
    }

    struct Device: Decodable {
        let deviceToken: String
        let platform: DevicePlatform?
    }

    /// Keeps the token for the push channel; nothing is pushed from here yet (no APNs/FCM sender).
    private static var register: APIRoute {
        APIRoute(.post, "/api/mobile/notifications/register", summary: "Registers the caller's device token (a platform retires their other tokens)",
                 body: .object([("device_token", .string(maxLength: RegisterDevice.maximumTokenLength)), ("platform", .optional(.values(of: DevicePlatform.self)))]),
                 response: .success) { request in
            let body = try request.decode(Device.self)
            do {
                _ = try await request.run(RegisterDevice.self, .init(token: body.deviceToken, platform: body.platform))
            } catch let error as InputError {
                throw APIError.invalidField("device_token", reason: error.messageKey == "notifications.error.device-token" ? "empty" : "contains a control character or is too long")
            }
            return try .success()
        }
    }

    // MARK: Dashboard

    /// `unread_notifications`, on the dashboard and in the admin stats: the caller's own unread count.
    static var unreadCount: DashboardContribution {
        DashboardContribution(fields: [("unread_notifications", .integer(minimum: 0))]) { request in
            guard request.kernel.registry.policy.scope(of: request.principal.role, for: NotificationsPermissions.own) != nil else { return [:] }
            return ["unread_notifications": .int(try await request.run(ListNotifications.self, .init(limit: 0)).unread)]
        }
    }
}

/// A notification type the platform knows, any case (`message` is `MESSAGE`); another is 400 naming the field.
struct KnownType: Decodable {
    let value: String

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard NotificationType.known.contains(NotificationType(rawValue: text.uppercased())) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a known notification type")
        }
        value = text.uppercased()
    }
}

struct NotificationPage: Codable, Sendable {
    let data: [NotificationItem]
    let total: Int
    let unreadCount: Int
    let page: Int
    let perPage: Int
}

struct NotificationItem: Codable, Sendable {
    let id: String
    let type: String
    let priority: NotificationPriority
    let title: String
    let body: String
    /// What it is about, as `{"link": "attendance:GR-0001:2026-11-22"}`.
    let metadata: [String: String]
    let isRead: Bool
    let readAt: Nullable<Date>
    let createdAt: Date
    /// Who caused it is not recorded: always null.
    let actorName: Nullable<String>
    let actorAvatar: Nullable<String>

    init(_ notification: UserNotification, language: Language) {
        id = notification.id
        type = notification.type.rawValue
        priority = notification.priority
        title = notification.title.text(in: language)
        body = notification.body.text(in: language)
        metadata = ["link": notification.link]
        isRead = notification.read
        readAt = Nullable(notification.readAt)
        createdAt = notification.createdAt
        actorName = Nullable(nil)
        actorAvatar = Nullable(nil)
    }
}

struct Marked: Codable, Sendable {
    let success: Bool
    let count: Int
}

struct Updated: Codable, Sendable {
    let success: Bool
    let updatedCount: Int
}

struct PreferenceList: Codable, Sendable {
    let data: [PreferenceItem]
    let defaults: Defaults?
}

/// What applies when nothing is stored, in the contract's shape (the web app's values).
struct Defaults: Codable, Sendable {
    let inApp: Bool
    let email: Bool
    let push: Bool
    let sms: Bool
    let quietHoursStart: Int
    let quietHoursEnd: Int

    static let contract = Defaults(inApp: true, email: true, push: true, sms: false, quietHoursStart: 22, quietHoursEnd: 7)
}

struct PreferenceItem: Codable, Sendable {
    let id: String
    let type: String
    let channel: NotificationChannel
    let enabled: Bool
    let quietHoursStart: Nullable<Int>
    let quietHoursEnd: Nullable<Int>
    let digestEnabled: Bool
    let digestFrequency: Nullable<String>

    init(_ preference: ChannelPreference) {
        id = "\(preference.type.rawValue):\(preference.channel.rawValue)"
        type = preference.type.rawValue
        channel = preference.channel
        enabled = preference.enabled
        // Stored as HH:MM; the contract counts whole hours.
        quietHoursStart = Nullable(preference.quietFrom.flatMap { Int($0.prefix { $0 != ":" }) })
        quietHoursEnd = Nullable(preference.quietTo.flatMap { Int($0.prefix { $0 != ":" }) })
        // No digests here.
        digestEnabled = false
        digestFrequency = Nullable(nil)
    }
}
