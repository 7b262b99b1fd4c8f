import Core

/// Everyone reads and manages only their own notifications; administrators watch the outbox.
public enum NotificationsPermissions {
    public static let own: Permission = "notifications.own"
    public static let outbox: Permission = "notifications.outbox"

    static var definitions: [PermissionDefinition] {
        let members: [Role] = [.developer, .admin, .teacher, .student, .guardian, .accountant, .staff]
        return [
            PermissionDefinition(own, summary: LocalizedText(ar: "إشعاراتي وتفضيلاتي", en: "My notifications and preferences"),
                                 grants: Dictionary(uniqueKeysWithValues: members.map { ($0, AccessScope.ownRecord) })),
            PermissionDefinition(outbox, summary: LocalizedText(ar: "صندوق الإرسال الخارجي", en: "The outgoing outbox"), grants: .administrators),
        ]
    }
}

public enum NotificationsSettings {
    /// The log-file sender's file: the channel that exercises the outbox until email and push arrive.
    public static let logPath = Setting<String>.filePath("notifications", "log-path", default: "hogwarts-outbox.log")
    /// Days a notification stays listed.
    public static let expiryDays = Setting<Int>.integer("notifications", "expiry-days", default: 30, in: 1...365)
}
