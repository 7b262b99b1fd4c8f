import Core
import Foundation

/// How urgent an announcement is, in the contract's words.
public enum AnnouncementPriority: String, Codable, Sendable, CaseIterable {
    case low, normal, high, urgent
}

/// Whom an announcement is for. Written as one string, as posters name it but by id:
/// `school`, `role:TEACHER`, `class:<class id>`, `year-level:<year level id>`.
public enum AnnouncementAudience: Codable, Sendable, Equatable {
    case school
    case role(Role)
    /// A class, by id.
    case `class`(String)
    /// A year level, by id.
    case yearLevel(String)

    var kind: String {
        switch self {
        case .school: "school"
        case .role: "role"
        case .class: "class"
        case .yearLevel: "year-level"
        }
    }

    var target: String {
        switch self {
        case .school: ""
        case .role(let role): role.rawValue
        case .class(let id), .yearLevel(let id): id
        }
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        guard let audience = AnnouncementAudience(kind: parts.first ?? "", target: parts.count > 1 ? parts[1] : "") else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not an audience: \(text)"))
        }
        self = audience
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(target.isEmpty ? kind : "\(kind):\(target)")
    }

    init?(kind: String, target: String) {
        switch kind {
        case "school": self = .school
        case "role": guard let role = Role(rawValue: target) else { return nil }; self = .role(role)
        case "class": self = .class(target)
        case "year-level": self = .yearLevel(target)
        default: return nil
        }
    }
}

/// An announcement as its readers see it.
public struct Announcement: Codable, Sendable, Equatable {
    public let id: String
    public let title: String
    public let content: String
    public let priority: AnnouncementPriority
    public let audience: AnnouncementAudience
    /// The class's or year level's code when the audience is one (`7A`, `G7`).
    public let audienceCode: String?
    public let publishAt: Date
    public let expiresAt: Date?
    public let pinned: Bool
    public let authorID: String
    public let authorName: String
    public let createdAt: Date
    public let withdrawnAt: Date?
    /// How many people have opened it.
    public let readCount: Int
    /// Whether the caller has opened it.
    public let readByMe: Bool
    /// Its time has come and it was not withdrawn (it may have expired since).
    public let isPublished: Bool
}
