import ArgumentParser
import Auth
import Core
import Foundation
import Students

/// Announcements: the school's notices, to everyone or to a role, a class or a year level, now
/// or at a time to come, pinned or not, with read receipts; each audience is told once through
/// the school's notification channels when an announcement is published.
public struct AnnouncementsModule: AppModule, CommandLineModule, HTTPModule, SyncModule {
    public init() {}

    public let id: ModuleID = "announcements"
    public let version = SemanticVersion(0, 1, 0)
    public var iconName: String { "megaphone" }
    public var dependencies: [ModuleDependency] { [ModuleDependency("auth", "^1.0.0"), ModuleDependency("students", "^1.0.0")] }
    public var permissions: [PermissionDefinition] { AnnouncementsPermissions.definitions }
    public var migrations: [Migration] { AnnouncementsMigrations.all }
    /// Every table the migrations create: only this module's code may name them.
    public var ownedTables: [String] { ["announcements_posts", "announcements_reads"] }
    public var actions: [any Action.Type] {
        [PostAnnouncement.self, ListAnnouncements.self, OpenAnnouncement.self, WithdrawAnnouncement.self, AnnouncementsDue.self,
         PublishDueAnnouncements.self, AnnouncementAudienceChoices.self]
    }
    public var publishedEvents: [any DomainEvent.Type] { [AnnouncementPublished.self] }
    public var commands: [any ParsableCommand.Type] { [AnnouncementsCommand.self] }
    public var routes: [APIRoute] { AnnouncementsRoutes.all }
    public var syncEntities: [SyncEntityType] { AnnouncementsSync.entities }
    public var syncScopes: SyncScopeRule? { AnnouncementsSync.scopes }
    /// Each server publishes scheduled announcements as they fall due; the guarded update tells each audience once.
    public var backgroundJobs: [BackgroundJob] {
        [BackgroundJob("announcements.publish-due", every: 60, when: AnnouncementsDue.self, .init(), run: PublishDueAnnouncements.self, .init())]
    }
    public var strings: StringCatalog { Self.catalog }

    private static let catalog = StringCatalog.load(from: .module)

    /// A pinned notice to the whole school, one to a class from its teacher, and one to come.
    public func seedDemo(_ context: ActionContext, size: DemoSize) throws {
        try AnnouncementsDemo.seed(context)
    }
}
