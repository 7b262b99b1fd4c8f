import Core
import Foundation

// The bodies the announcements routes answer with; each route's OpenAPI schema is read from its type.

/// Whom an announcement is for, without the target: the contract's `scope`.
enum AnnouncementScope: String, Codable, Sendable, CaseIterable {
    case school, role, `class`
    case yearLevel = "year-level"

    init(_ audience: AnnouncementAudience) {
        self = switch audience {
        case .school: .school
        case .role: .role
        case .class: .class
        case .yearLevel: .yearLevel
        }
    }
}

/// One announcement as the apps list it; we keep no avatars.
struct AnnouncementItem: Codable, Sendable {
    let id: String
    let title: String
    let content: String
    let priority: AnnouncementPriority
    let publishedAt: Date
    let expiresAt: Nullable<Date>
    let authorName: String
    let authorAvatar: Nullable<String>

    init(_ announcement: Announcement) {
        id = announcement.id
        title = announcement.title
        content = announcement.content
        priority = announcement.priority
        publishedAt = announcement.publishAt
        expiresAt = Nullable(announcement.expiresAt)
        authorName = announcement.authorName
        authorAvatar = Nullable(nil)
    }
}

/// What the detail adds to the list's keys: whom it is for, its state and how many have read it.
/// A year level's code goes in `target_class` too: the contract has no field of its own for it.
struct AnnouncementState: Codable, Sendable {
    let scope: AnnouncementScope
    let isPublished: Bool
    let isPinned: Bool
    let isFeatured: Bool
    let targetClass: Nullable<String>
    let targetRole: Nullable<Role>
    let readCount: Int
    let createdAt: Date

    init(_ announcement: Announcement) {
        scope = AnnouncementScope(announcement.audience)
        isPublished = announcement.isPublished
        isPinned = announcement.pinned
        // Pinned is the only emphasis kept here: featured means the same.
        isFeatured = announcement.pinned
        targetClass = Nullable(announcement.audienceCode)
        if case .role(let role) = announcement.audience { targetRole = Nullable(role) } else { targetRole = Nullable(nil) }
        readCount = announcement.readCount
        createdAt = announcement.createdAt
    }
}

/// One announcement in full: the list's keys and, flat in the same object, its state.
typealias AnnouncementDetail = APIMerged<AnnouncementItem, AnnouncementState>

extension APIMerged where Base == AnnouncementItem, Extra == AnnouncementState {
    init(_ announcement: Announcement) {
        self.init(AnnouncementItem(announcement), AnnouncementState(announcement))
    }
}
