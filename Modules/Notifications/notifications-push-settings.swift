import Core
import Foundation

/// Where a school's pushes go. APNs is set up when its key file, key id, team id and topic are
/// all set; FCM when its service-account file is. An unset channel queues nothing, like email
/// without a sender address.
public enum PushSettings {
    /// The `.p8` key (ES256) from Apple's developer account; relative paths resolve against the database's folder.
    public static let apnsKeyPath = Setting<String>("notifications", "apns-key-path", default: "", expected: "path", kind: .file, isValid: { PushSettings.readablePath($0) })
    public static let apnsKeyID = Setting<String>("notifications", "apns-key-id", default: "", expected: "10 characters") { value in
        value.isEmpty || (value.count == 10 && value.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
    }
    public static let apnsTeamID = Setting<String>("notifications", "apns-team-id", default: "", expected: "10 characters") { value in
        value.isEmpty || (value.count == 10 && value.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
    }
    /// The iOS app's bundle id, e.g. `org.databayt.hogwarts`.
    public static let apnsTopic = Setting<String>("notifications", "apns-topic", default: "", expected: "bundle id") { value in
        value.isEmpty || value.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
    }
    /// Apple's production service; `https://api.sandbox.push.apple.com` for development builds.
    public static let apnsURL = Setting<String>("notifications", "apns-url", default: "https://api.push.apple.com", expected: "https://...", kind: .webAddress, isValid: { PushSettings.httpsURL($0) })
    /// The Firebase service-account JSON (client_email, private_key, token_uri, project_id).
    public static let fcmServiceAccountPath = Setting<String>("notifications", "fcm-service-account-path", default: "", expected: "path", kind: .file, isValid: { PushSettings.readablePath($0) })
    public static let fcmURL = Setting<String>("notifications", "fcm-url", default: "https://fcm.googleapis.com", expected: "https://...", kind: .webAddress, isValid: { PushSettings.httpsURL($0) })
    /// A PEM file of certificate authorities trusted besides the system's: a test's own server or
    /// a private relay. Empty: the system's only.
    public static let extraCAPath = Setting<String>("notifications", "push-ca-path", default: "", expected: "path", kind: .file, isValid: { PushSettings.readablePath($0) })

    static let all = [apnsKeyPath, apnsKeyID, apnsTeamID, apnsTopic, apnsURL, fcmServiceAccountPath, fcmURL, extraCAPath]

    static func readablePath(_ value: String) -> Bool { !value.contains("\u{0}") && !value.contains("\n") }

    static func httpsURL(_ value: String) -> Bool {
        value.hasPrefix("https://") && !value.contains(where: { $0.isWhitespace || $0 == "<" || $0 == ">" || $0 == "\"" })
    }
}

/// A school's push configuration as the Notifier and the senders read it.
struct PushConfiguration: Codable, Sendable {
    var apns: APNsConfiguration?
    var fcm: FCMConfiguration?
    var extraCA: String?

    init(_ context: ActionContext) throws {
        let key = try context.setting(PushSettings.apnsKeyPath)
        let keyID = try context.setting(PushSettings.apnsKeyID)
        let team = try context.setting(PushSettings.apnsTeamID)
        let topic = try context.setting(PushSettings.apnsTopic)
        if !key.isEmpty, !keyID.isEmpty, !team.isEmpty, !topic.isEmpty {
            apns = APNsConfiguration(keyPath: try context.filePath(PushSettings.apnsKeyPath), keyID: keyID, teamID: team, topic: topic,
                                     baseURL: try context.setting(PushSettings.apnsURL))
        }
        if !(try context.setting(PushSettings.fcmServiceAccountPath)).isEmpty {
            fcm = FCMConfiguration(serviceAccountPath: try context.filePath(PushSettings.fcmServiceAccountPath), baseURL: try context.setting(PushSettings.fcmURL))
        }
        if !(try context.setting(PushSettings.extraCAPath)).isEmpty { extraCA = try context.filePath(PushSettings.extraCAPath) }
    }

    /// Whether this school pushes to phones of `platform`.
    func sends(to platform: DevicePlatform) -> Bool {
        switch platform {
        case .ios: apns != nil
        case .android: fcm != nil
        }
    }
}

struct APNsConfiguration: Codable, Sendable, Hashable {
    let keyPath: String
    let keyID: String
    let teamID: String
    let topic: String
    let baseURL: String
}

struct FCMConfiguration: Codable, Sendable, Hashable {
    let serviceAccountPath: String
    let baseURL: String
}
