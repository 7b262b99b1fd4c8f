import Core

public enum EventsError: HogwartsError, Equatable {
    /// No such entry, or one the caller may not see: one answer for both.
    case unknownEvent(String)
    /// A teacher adds events only for a class she teaches.
    case notYourClass(String)
    /// Its last day is before its first, or it ends before it starts.
    case endsBeforeStart
    /// A holiday, an exam date or a cancelled event takes no registrations.
    case notOpenForRegistration(String)
    /// Only its organizer or an administrator cancels an event.
    case notYours(String)
    /// A calendar feed address that is not (or no longer) anyone's: one answer for every such address.
    case unknownFeed

    public var messageKey: String {
        switch self {
        case .unknownEvent: "events.error.unknown"
        case .notYourClass: "events.error.not-your-class"
        case .endsBeforeStart: "events.error.ends-before-start"
        case .notOpenForRegistration: "events.error.not-open"
        case .notYours: "events.error.not-yours"
        case .unknownFeed: "events.error.unknown-feed"
        }
    }

    public var messageArguments: [String: String] {
        switch self {
        case .unknownEvent(let id), .notOpenForRegistration(let id), .notYours(let id): ["id": id]
        case .notYourClass(let code): ["class": code]
        case .endsBeforeStart, .unknownFeed: [:]
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .unknownEvent, .unknownFeed: .notFound
        case .notYourClass, .notYours: .permissionDenied
        case .endsBeforeStart: .invalidData
        case .notOpenForRegistration: .conflict
        }
    }
}
