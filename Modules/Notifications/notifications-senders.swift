import Core
import Foundation

/// One outbox entry on its way out.
struct OutboxDelivery {
    let id: String
    let payload: String
    let now: Date
}

/// How a send ended, when it needs no other try.
enum SendOutcome: Codable, Sendable, Equatable {
    case delivered
    /// The push service says the device token will never work again (the app was removed, say), and why.
    case tokenGone(String)
}

/// One way a notification leaves the server. A sender gets one outbox entry at a time, outside
/// any database transaction; what it throws is recorded on the entry, which is retried with
/// backoff and, after the last attempt, kept as FAILED for an admin to see. A new channel (SMS,
/// say) is one more conforming type and one more case in `ChannelSetup`.
protocol NotificationSender {
    func send(_ delivery: OutboxDelivery) throws -> SendOutcome
}

/// What a channel's sender needs, read from the school's settings when an entry is claimed, so
/// the send itself needs no database.
enum ChannelSetup: Codable, Sendable {
    case log(path: String)
    case email(from: String, school: LocalizedText, siteURL: String)
    case push(PushConfiguration)
    /// The channel cannot be sent from here, and why (a setting that cannot be read, a channel
    /// a newer version wrote).
    case unavailable(String)

    init(channel: String, _ context: ActionContext) {
        do {
            switch channel {
            case "log": self = .log(path: try context.filePath(NotificationsSettings.logPath))
            case NotificationChannel.email.rawValue:
                self = .email(from: try context.setting(NotificationsSettings.emailFrom), school: context.school.name,
                              siteURL: try context.setting(NotificationsSettings.siteURL))
            case NotificationChannel.push.rawValue: self = .push(try PushConfiguration(context))
            default: self = .unavailable(UnknownChannel(channel: channel).description)
            }
        } catch {
            self = .unavailable(String(describing: error))
        }
    }

    var sender: any NotificationSender {
        get throws {
            switch self {
            case .log(let path): LogFileSender(path: path)
            case .email(let from, let school, let siteURL): EmailSender(from: from, school: school, siteURL: siteURL, transport: .configured)
            case .push(let configuration): PushSender(configuration: configuration)
            case .unavailable(let why): throw ChannelUnavailable(why: why)
            }
        }
    }
}

struct ChannelUnavailable: Error, CustomStringConvertible {
    let why: String
    var description: String { why }
}

/// An entry for a channel this server has no sender for (written by a newer version, say).
struct UnknownChannel: Error, CustomStringConvertible {
    let channel: String
    var description: String { "no sender for the channel \(channel) on this server" }
}
