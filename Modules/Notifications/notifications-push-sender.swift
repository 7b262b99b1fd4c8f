import Core
import Foundation

/// What a push outbox entry carries: one device, and the words in its owner's language, decided
/// when the notification was made so a retry sends exactly the same.
struct PushPayload: Codable, Equatable {
    let token: String
    let platform: DevicePlatform
    let language: Language
    let title: String
    let body: String
    let link: String
    let type: String
    let notification: String
    let priority: NotificationPriority
    /// Unread notifications, this one included: the number on the app's icon.
    let badge: Int?

    /// A newer push about the same thing (the same absence, say) replaces the older one on the
    /// phone. APNs allows 64 bytes.
    var collapseID: String { link.isEmpty || link.utf8.count > 64 ? notification : link }
}

/// The push channel: an outbox entry names one device; iPhones go to APNs, Android phones to
/// FCM. A token the service calls gone ends the entry (the device is deactivated when the outcome
/// is recorded), not retried; a busy or failing service throws, and the outbox retries with
/// backoff until its last attempt.
struct PushSender: NotificationSender {
    let configuration: PushConfiguration

    func send(_ delivery: OutboxDelivery) throws -> SendOutcome {
        let push = try JSONDecoder().decode(PushPayload.self, from: Data(delivery.payload.utf8))
        switch push.platform {
        case .ios:
            guard let apns = configuration.apns else { throw PushSetupError(detail: "APNs is no longer set up for this school: set its key, key id, team id and topic") }
            return try APNsSender(configuration: apns, extraCA: configuration.extraCA).send(push, now: delivery.now)
        case .android:
            guard let fcm = configuration.fcm else { throw PushSetupError(detail: "FCM is no longer set up for this school: set its service-account file") }
            return try FCMSender(configuration: fcm, extraCA: configuration.extraCA).send(push, now: delivery.now)
        }
    }
}

/// The phones a person's pushes go to.
enum PushDevices {
    struct Device {
        let token: String
        let platform: DevicePlatform
    }

    static func active(of user: String, _ context: ActionContext) throws -> [Device] {
        try context.database.fetchAll("""
            SELECT token, platform FROM notifications_devices WHERE school_id = :school_id AND user_id = :user AND active = 1 ORDER BY token
            """, ["user": .text(user)]).map { row in
            let token = row.string("token")
            return Device(token: token, platform: (row["platform"] as String?).flatMap(DevicePlatform.init(rawValue:)) ?? inferred(token))
        }
    }

    /// A token registered without its platform (the iOS app's `/notifications/register`): APNs
    /// tokens are 64 hexadecimal digits, FCM's are longer and not hexadecimal.
    static func inferred(_ token: String) -> DevicePlatform {
        token.count == 64 && token.allSatisfy(\.isHexDigit) ? .ios : .android
    }
}
