import Auth
import Core
import Foundation

/// Creates notifications: one per recipient who has not switched the type off, with the title
/// and body in both languages, and an outbox entry per channel beyond the app (held back until
/// the end of the recipient's quiet hours): the delivery log always, and an email and a push to
/// each of their phones in the recipient's language where the school sends mail or pushes (APNs
/// for iPhones, FCM for Android) and they have not switched that channel off for the type.
public enum Notifier {
    public static func notify(_ users: [String], type: NotificationType, priority: NotificationPriority = .normal,
                              titleKey: String, bodyKey: String, arguments: [String: String], link: String, _ context: ActionContext) throws {
        let catalog = NotificationsModule().strings
        let arabic = Localizer(language: .ar, catalog: catalog)
        let english = Localizer(language: .en, catalog: catalog)
        let expiry = context.now.addingTimeInterval(Double(try context.setting(NotificationsSettings.expiryDays)) * 86400)
        let mails = !(try context.setting(NotificationsSettings.emailFrom)).isEmpty
        let push = try PushConfiguration(context)
        let pushing = push.apns != nil || push.fcm != nil
        for user in Set(users) {
            let preference = try context.database.fetchOne(
                "SELECT enabled, quiet_from, quiet_to FROM notifications_preferences WHERE school_id = :school_id AND user_id = :user AND type = :type",
                ["user": .text(user), "type": .text(type.rawValue)])
            if let preference, preference["enabled"] == false { continue }
            let id = context.newID()
            let title = LocalizedText(ar: arabic(titleKey, arguments), en: english(titleKey, arguments))
            let body = LocalizedText(ar: arabic(bodyKey, arguments), en: english(bodyKey, arguments))
            try context.database.insert(into: "notifications_items", [
                "id": .text(id), "user_id": .text(user), "type": .text(type.rawValue), "priority": .text(priority.rawValue),
                "title_ar": .text(title.ar), "title_en": .text(title.en), "body_ar": .text(body.ar), "body_en": .text(body.en), "link": .text(link),
                "created_at": SQLValue(context.now), "expires_at": SQLValue(expiry),
            ])
            // On the recipient's open streams at once: quiet hours hold back what leaves the school, not the app.
            try NotificationsLive.publish(id: id, to: user, type: type, priority: priority, title: title, body: body, link: link, context)
            let sendAt = QuietHours(from: preference?["quiet_from"], to: preference?["quiet_to"]).end(after: context.now, zone: context.timeZone)
            let entry = Outbox(notification: id, recipient: user, sendAt: sendAt)
            try entry.add("log", payload: ["user": user, "type": type.rawValue, "title": title.en, "body": body.en, "link": link], context)
            let emails = try mails && wants(user, type, .email, context)
            let pushes = try pushing && wants(user, type, .push, context)
            guard emails || pushes, let account = try UserAccounts.find(id: user, in: context), account.status == .active else { continue }
            let language = account.language ?? context.school.language
            if emails, EmailAddressRule.isPlausible(account.email) {
                try entry.add(NotificationChannel.email.rawValue, payload: EmailPayload(
                    to: account.email, name: account.displayName, language: language, subject: title.text(in: language),
                    text: body.text(in: language), type: type.rawValue), context)
            }
            if pushes {
                let devices = try PushDevices.active(of: user, context).filter { push.sends(to: $0.platform) }
                let badge = devices.isEmpty ? nil : try ListNotifications.unread(of: user, context)
                for device in devices {
                    try entry.add(NotificationChannel.push.rawValue, payload: PushPayload(
                        token: device.token, platform: device.platform, language: language, title: title.text(in: language), body: body.text(in: language),
                        link: link, type: type.rawValue, notification: id, priority: priority, badge: badge), context)
                }
            }
        }
    }

    /// Whether `user` takes `type` on `channel`: yes unless they switched it off.
    static func wants(_ user: String, _ type: NotificationType, _ channel: NotificationChannel, _ context: ActionContext) throws -> Bool {
        let enabled: Bool? = try context.database.fetchValue("""
            SELECT enabled FROM notifications_channel_preferences
            WHERE school_id = :school_id AND user_id = :user AND type = :type AND channel = :channel
            """, ["user": .text(user), "type": .text(type.rawValue), "channel": .text(channel.rawValue)])
        return enabled ?? true
    }

    /// The accounts of a student and of their guardians.
    static func familyOf(student: String, includeStudent: Bool, _ context: ActionContext) throws -> [String] {
        try context.database.fetchAll("""
            SELECT guardian_user_id AS u FROM students_v1_guardian_links
            WHERE school_id = :school_id AND student_id = :student AND guardian_user_id IS NOT NULL
            UNION SELECT user_id FROM students_v1_students WHERE school_id = :school_id AND id = :student AND user_id IS NOT NULL AND :withStudent = 1
            """, ["student": .text(student), "withStudent": .integer(includeStudent ? 1 : 0)]).map { $0.string("u") }
    }
}

/// One notification's entries in the outbox, one per channel, all due at the same time.
struct Outbox {
    let notification: String
    let recipient: String
    let sendAt: Date

    func add(_ channel: String, payload: some Encodable, _ context: ActionContext) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try context.database.insert(into: "notifications_outbox", [
            "id": .text(context.newID()), "notification_id": .text(notification), "channel": .text(channel), "recipient": .text(recipient),
            "payload": .text(String(decoding: try encoder.encode(payload), as: UTF8.self)), "state": "PENDING",
            "next_attempt_at": SQLValue(sendAt),
        ])
    }
}

/// Quiet hours in the school's time zone, e.g. 21:00-07:00: outside deliveries wait until they end.
struct QuietHours {
    let from: String?
    let to: String?

    /// `moment`, or the end of the quiet hours it falls in.
    func end(after moment: Date, zone: TimeZone) -> Date {
        guard let from, let to, let start = Self.minutes(from), let stop = Self.minutes(to) else { return moment }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.hour, .minute], from: moment)
        let now = (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
        let quiet = start <= stop ? (now >= start && now < stop) : (now >= start || now < stop)
        guard quiet else { return moment }
        let wait = (stop - now + 24 * 60) % (24 * 60)
        return moment.addingTimeInterval(Double(wait * 60))
    }

    static func minutes(_ text: String) -> Int? {
        let parts = text.split(separator: ":").compactMap { Int($0) }
        guard parts.count == 2, (0...23).contains(parts[0]), (0...59).contains(parts[1]) else { return nil }
        return parts[0] * 60 + parts[1]
    }
}
