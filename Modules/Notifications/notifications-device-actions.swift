import Core
import Foundation

/// Keeps a phone's push token for the caller. A token belongs to one person at a time (a phone
/// someone else signs in on moves to them), and a token given with its platform retires the
/// caller's other tokens, as the web app's contract says. The push channel (APNs for iOS, FCM for
/// Android) sends to the active ones.
public struct RegisterDevice: Action {
    public struct Input: Codable, Sendable {
        public var token: String
        public var platform: DevicePlatform?
        public init(token: String, platform: DevicePlatform? = nil) {
            self.token = token
            self.platform = platform
        }
    }

    public static let id = "notifications.register-device"
    public static let permission = NotificationsPermissions.own
    /// FCM tokens are about 160 characters, APNs tokens 64; room to spare, not for a novel.
    public static let maximumTokenLength = 4096

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        guard !input.token.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw InputError("notifications.error.device-token") }
        try TextInput.check(input.token, field: "device_token", maxLength: Self.maximumTokenLength)
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Bool {
        let arguments: SQLArguments = ["token": .text(input.token), "me": .text(context.principal.userID),
                                       "platform": SQLValue(input.platform?.rawValue), "now": SQLValue(context.now)]
        try context.database.execute("""
            INSERT INTO notifications_devices (school_id, token, user_id, platform, active, registered_at, updated_at)
            VALUES (:school_id, :token, :me, :platform, 1, :now, :now)
            ON CONFLICT (school_id, token) DO UPDATE SET user_id = excluded.user_id, platform = excluded.platform, active = 1, updated_at = excluded.updated_at
            """, arguments)
        if input.platform != nil {
            try context.database.execute("""
                UPDATE notifications_devices SET active = 0, updated_at = :now WHERE school_id = :school_id AND user_id = :me AND token != :token AND active = 1
                """, arguments)
        }
        return true
    }
}

/// The caller's registered devices, active first: what a push sender will reach.
public struct ListDevices: Action {
    public struct Input: Codable, Sendable { public init() {} }

    public static let id = "notifications.devices"
    public static let permission = NotificationsPermissions.own
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> [RegisteredDevice] {
        try context.database.fetchAll("""
            SELECT token, platform, active, updated_at FROM notifications_devices WHERE school_id = :school_id AND user_id = :me
            ORDER BY active DESC, updated_at DESC, token
            """, ["me": .text(context.principal.userID)]).map { row in
            RegisteredDevice(token: row.string("token"), platform: (row["platform"] as String?).flatMap(DevicePlatform.init(rawValue:)),
                             active: row["active"] ?? false, updatedAt: row["updated_at"] ?? Date(timeIntervalSince1970: 0))
        }
    }
}

/// The caller's stored choices per type and channel: `in_app` from the type switches (what the
/// Notifier obeys), the other channels from their own table. Empty when nothing was chosen.
public struct ChannelPreferences: Action {
    public struct Input: Codable, Sendable { public init() {} }

    public static let id = "notifications.channel-preferences"
    public static let permission = NotificationsPermissions.own
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> [ChannelPreference] {
        let me: SQLArguments = ["me": .text(context.principal.userID)]
        var quiet: [String: (String?, String?)] = [:]
        var result: [ChannelPreference] = []
        for row in try context.database.fetchAll(
            "SELECT type, enabled, quiet_from, quiet_to FROM notifications_preferences WHERE school_id = :school_id AND user_id = :me ORDER BY type", me) {
            quiet[row.string("type")] = (row["quiet_from"], row["quiet_to"])
            result.append(ChannelPreference(type: NotificationType(rawValue: row.string("type")), channel: .inApp, enabled: row["enabled"] ?? true,
                                            quietFrom: row["quiet_from"], quietTo: row["quiet_to"]))
        }
        for row in try context.database.fetchAll(
            "SELECT type, channel, enabled FROM notifications_channel_preferences WHERE school_id = :school_id AND user_id = :me ORDER BY type, channel", me) {
            guard let channel = NotificationChannel(rawValue: row.string("channel")) else { continue }
            let hours = quiet[row.string("type")]
            result.append(ChannelPreference(type: NotificationType(rawValue: row.string("type")), channel: channel, enabled: row["enabled"] ?? true,
                                            quietFrom: hours?.0, quietTo: hours?.1))
        }
        return result
    }
}

/// Switches types on or off per channel. `in_app` is the type switch the Notifier reads (off: no
/// notification at all, as `notifications preferences --enabled off`); other channels are kept
/// for the senders beyond the app. Returns how many choices were applied.
public struct SetChannelPreferences: Action {
    public struct Change: Codable, Sendable, Equatable {
        public var type: String
        public var channel: NotificationChannel
        public var enabled: Bool
        public init(type: String, channel: NotificationChannel, enabled: Bool) {
            self.type = type
            self.channel = channel
            self.enabled = enabled
        }
    }

    public struct Input: Codable, Sendable {
        public var changes: [Change]
        public init(changes: [Change]) { self.changes = changes }
    }

    public static let id = "notifications.set-channel-preferences"
    public static let permission = NotificationsPermissions.own
    /// Every known type on every channel fits many times over.
    public static let maximumChanges = 100

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        guard input.changes.count <= Self.maximumChanges else { throw InputError("notifications.error.too-many", ["max": String(Self.maximumChanges)]) }
        for change in input.changes where !NotificationType.known.contains(NotificationType(rawValue: change.type.uppercased())) {
            throw InputError("notifications.error.unknown-type",
                             ["value": TextInput.printable(change.type), "types": NotificationType.known.map(\.rawValue).joined(separator: "|")])
        }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Int {
        for change in input.changes {
            let arguments: SQLArguments = ["me": .text(context.principal.userID), "type": .text(change.type.uppercased()),
                                           "channel": .text(change.channel.rawValue), "enabled": .integer(change.enabled ? 1 : 0)]
            if change.channel == .inApp {
                try context.database.execute("""
                    INSERT INTO notifications_preferences (school_id, user_id, type, enabled) VALUES (:school_id, :me, :type, :enabled)
                    ON CONFLICT (school_id, user_id, type) DO UPDATE SET enabled = excluded.enabled
                    """, arguments)
            } else {
                try context.database.execute("""
                    INSERT INTO notifications_channel_preferences (school_id, user_id, type, channel, enabled) VALUES (:school_id, :me, :type, :channel, :enabled)
                    ON CONFLICT (school_id, user_id, type, channel) DO UPDATE SET enabled = excluded.enabled
                    """, arguments)
            }
        }
        return input.changes.count
    }
}
