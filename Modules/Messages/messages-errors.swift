import Core

public enum MessagesError: HogwartsError, Equatable {
    case cannotStart(String)
    case unknownUser(String)
    case unknownConversation(String)
    case readOnly
    case bodyLength
    case titleRequired
    case directNeedsOne
    case editWindowClosed
    case notSender
    case unknownMessage(String)
    case tooManyParticipants(Int)
    case unknownCursor(String)
    case limit(Int)

    public var messageKey: String {
        switch self {
        case .cannotStart: "messages.error.cannot-start"
        case .unknownUser: "messages.error.unknown-user"
        case .unknownConversation: "messages.error.unknown-conversation"
        case .readOnly: "messages.error.read-only"
        case .bodyLength: "messages.error.body-length"
        case .titleRequired: "messages.error.title-required"
        case .directNeedsOne: "messages.error.direct-needs-one"
        case .editWindowClosed: "messages.error.edit-window"
        case .notSender: "messages.error.not-sender"
        case .unknownMessage: "messages.error.unknown-message"
        case .tooManyParticipants: "messages.error.too-many-participants"
        case .unknownCursor: "messages.error.unknown-cursor"
        case .limit: "messages.error.limit"
        }
    }

    public var messageArguments: [String: String] {
        switch self {
        case .cannotStart(let value), .unknownUser(let value), .unknownConversation(let value), .unknownMessage(let value), .unknownCursor(let value): ["value": value]
        case .tooManyParticipants(let maximum), .limit(let maximum): ["max": String(maximum)]
        default: [:]
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .cannotStart, .readOnly, .notSender, .editWindowClosed: .permissionDenied
        case .unknownUser, .unknownConversation, .unknownMessage: .notFound
        default: .invalidData
        }
    }
}
