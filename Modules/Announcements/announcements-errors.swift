import Core

public enum AnnouncementsError: HogwartsError, Equatable {
    /// No such announcement, or one the caller may not see: one answer for both.
    case unknownAnnouncement(String)
    /// A teacher may address only a class they teach.
    case notYourClass(String)
    /// The audience names no role, class or year level of this school.
    case unknownAudience(String)
    /// It would stop showing before it starts.
    case expiresBeforePublished
    /// Only its author or an administrator withdraws an announcement.
    case notYours(String)

    public var messageKey: String {
        switch self {
        case .unknownAnnouncement: "announcements.error.unknown"
        case .notYourClass: "announcements.error.not-your-class"
        case .unknownAudience: "announcements.error.unknown-audience"
        case .expiresBeforePublished: "announcements.error.expires-before-published"
        case .notYours: "announcements.error.not-yours"
        }
    }

    public var messageArguments: [String: String] {
        switch self {
        case .unknownAnnouncement(let id), .notYours(let id): ["id": id]
        case .notYourClass(let code): ["class": code]
        case .unknownAudience(let value): ["value": value]
        case .expiresBeforePublished: [:]
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .unknownAnnouncement: .notFound
        case .notYourClass, .notYours: .permissionDenied
        case .unknownAudience, .expiresBeforePublished: .invalidData
        }
    }
}
