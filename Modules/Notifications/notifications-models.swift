import Core
import Foundation

/// What a notification is about. Open: a module adds its own types without a schema change.
public struct NotificationType: RawRepresentable, Codable, Sendable, Hashable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let message = NotificationType(rawValue: "MESSAGE")
    public static let attendanceAlert = NotificationType(rawValue: "ATTENDANCE_ALERT")
    public static let excuseDecided = NotificationType(rawValue: "EXCUSE_DECIDED")
    public static let resultsPublished = NotificationType(rawValue: "RESULTS_PUBLISHED")
    public static let reportCardPublished = NotificationType(rawValue: "REPORT_CARD_PUBLISHED")
    public static let announcement = NotificationType(rawValue: "ANNOUNCEMENT")
    public static let feeReminder = NotificationType(rawValue: "FEE_REMINDER")

    public static let known: [NotificationType] = [.message, .attendanceAlert, .excuseDecided, .resultsPublished, .reportCardPublished, .announcement,
                                                   .feeReminder]
}

public enum NotificationPriority: String, Codable, Sendable, CaseIterable {
    case low = "LOW"
    case normal = "NORMAL"
    case high = "HIGH"
    case urgent = "URGENT"
}

/// A notification as its recipient reads it: title and body in both languages, shown in theirs.
public struct UserNotification: Codable, Sendable, Equatable {
    public let id: String
    public let type: NotificationType
    public let priority: NotificationPriority
    public let title: LocalizedText
    public let body: LocalizedText
    /// What it is about, e.g. `attendance:GR-0001:2026-11-22`.
    public let link: String
    public let createdAt: Date
    public let read: Bool
    public let readAt: Date?

    init(row: SQLRow) {
        id = row.string("id")
        type = NotificationType(rawValue: row.string("type"))
        priority = NotificationPriority(rawValue: row.string("priority")) ?? .normal
        title = LocalizedText(ar: row.string("title_ar"), en: row.string("title_en"))
        body = LocalizedText(ar: row.string("body_ar"), en: row.string("body_en"))
        link = row.string("link")
        createdAt = row["created_at"] ?? Date(timeIntervalSince1970: 0)
        read = (row["read_at"] as String?) != nil
        readAt = row["read_at"]
    }
}

/// Where a notification reaches a person: in the app (the notification itself), or beyond it.
public enum NotificationChannel: String, Codable, Sendable, CaseIterable {
    case inApp = "in_app"
    case email
    case push
    case sms
}

/// One stored choice: a type on or off for a channel, with the type's quiet hours (`21:00`).
public struct ChannelPreference: Codable, Sendable, Equatable {
    public let type: NotificationType
    public let channel: NotificationChannel
    public let enabled: Bool
    public let quietFrom: String?
    public let quietTo: String?
}

/// The platform a device token belongs to.
public enum DevicePlatform: String, Codable, Sendable, CaseIterable {
    case ios
    case android
}

/// One outgoing delivery beyond the app, and where it stands.
public struct OutboxEntry: Codable, Sendable, Equatable {
    public let id: String
    public let channel: String
    public let recipient: String
    public let state: String
    public let attempts: Int
    public let lastError: String?
    public let nextAttemptAt: Date?
}

/// A device token kept for a push channel, and whether it is still the one to reach.
public struct RegisteredDevice: Codable, Sendable, Equatable {
    public let token: String
    public let platform: DevicePlatform?
    public let active: Bool
    public let updatedAt: Date
}
