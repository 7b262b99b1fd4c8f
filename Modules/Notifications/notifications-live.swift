import Core
import Foundation

/// A new notification on its recipient's live stream (`/api/v1/live`, event `notification`),
/// in the shape one item of `GET /api/mobile/notifications` has, in the stream's language.
enum NotificationsLive {
    static let kind = "notification"

    static func publish(id: String, to user: String, type: NotificationType, priority: NotificationPriority, title: LocalizedText,
                        body: LocalizedText, link: String, _ context: ActionContext) throws {
        try context.publishLive(to: [user], kind: kind) { language in
            NotificationItem(id: id, type: type, priority: priority, title: title.text(in: language), body: body.text(in: language), link: link,
                             createdAt: context.now)
        }
    }
}

extension NotificationItem {
    /// A notification just made: unread, from no one.
    init(id: String, type: NotificationType, priority: NotificationPriority, title: String, body: String, link: String, createdAt: Date) {
        self.id = id
        self.type = type.rawValue
        self.priority = priority
        self.title = title
        self.body = body
        metadata = ["link": link]
        isRead = false
        readAt = Nullable(nil)
        self.createdAt = createdAt
        actorName = Nullable(nil)
        actorAvatar = Nullable(nil)
    }
}
