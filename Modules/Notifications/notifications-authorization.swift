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
    public static let expiryDays = Setting<Int>.integer("notifications", "expiry-days", default: 30, in: 1...365, unit: .days)
    /// The address the school's mail comes from. Empty (the default): no email is sent.
    public static let emailFrom = Setting<String>("notifications", "email-from", default: "", expected: "address@domain", kind: .email) { value in
        value.isEmpty || EmailAddressRule.isPlausible(value)
    }
    /// The console's address as families reach it (`https://school.example.org`), for the
    /// link in each email to the page where they choose what they receive.
    public static let siteURL = Setting<String>("notifications", "site-url", default: "", expected: "https://...", kind: .webAddress) { value in
        value.isEmpty || ((value.hasPrefix("https://") || value.hasPrefix("http://")) && !value.contains(where: { $0.isWhitespace || $0 == "<" || $0 == ">" || $0 == "\"" }))
    }
}

/// Enough of an address to hand to a mail agent safely: one `@`, no spaces, controls or angle brackets.
enum EmailAddressRule {
    static func isPlausible(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".") && text.count <= 254
            && !text.contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 32 } == true || "<>(),;:\"[]\\".contains($0) })
    }
}
