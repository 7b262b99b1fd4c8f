import Core
import Foundation

/// One outbox entry on its way out.
struct OutboxDelivery {
    let id: String
    let payload: String
    let now: Date
}

/// One way a notification leaves the server. A sender gets one outbox entry at a time; what it
/// throws is recorded on the entry, which is retried with backoff and, after the last attempt,
/// kept as FAILED for an admin to see. A new channel (SMS, say) is one more conforming type and
/// one more case in `NotificationSenders.sender(for:)`.
protocol NotificationSender {
    func send(_ delivery: OutboxDelivery) throws
}

enum NotificationSenders {
    /// The sender of `channel` for the running school, nil for a channel this server cannot send.
    static func sender(for channel: String, _ context: ActionContext) throws -> (any NotificationSender)? {
        switch channel {
        case "log": LogFileSender(path: try context.filePath(NotificationsSettings.logPath))
        case NotificationChannel.email.rawValue:
            EmailSender(from: try context.setting(NotificationsSettings.emailFrom), school: context.school.name,
                        siteURL: try context.setting(NotificationsSettings.siteURL), transport: .configured)
        case NotificationChannel.push.rawValue: PushSender(configuration: try PushConfiguration(context), context: context)
        default: nil
        }
    }
}
