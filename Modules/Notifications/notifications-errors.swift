import Core

/// Errors of the notifications module.
public enum NotificationsError: HogwartsError, Equatable {
    /// No notification of the caller's matches: someone else's, another school's and a random id
    /// answer alike, as one that does not exist (404 over HTTP).
    case unknown(String)

    public var messageKey: String {
        switch self {
        case .unknown: "notifications.error.unknown"
        }
    }

    public var messageArguments: [String: String] {
        switch self {
        case .unknown(let value): ["value": value]
        }
    }

    public var exitStatus: ExitStatus { .notFound }
}
