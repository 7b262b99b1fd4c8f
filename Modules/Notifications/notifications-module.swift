import ArgumentParser
import Core
import Foundation

/// Notifications: what a user should know (an absent child, a decided excuse, results, a report
/// card, a message), in their language, with preferences and an outbox for channels beyond the app.
public struct NotificationsModule: AppModule, CommandLineModule, HTTPModule {
    public init() {}

    public let id: ModuleID = "notifications"
    public let version = SemanticVersion(1, 0, 0)
    public var iconName: String { "bell" }
    public var dependencies: [ModuleDependency] { [ModuleDependency("students", "^1.0.0"), ModuleDependency("auth", "^1.0.0")] }
    public var permissions: [PermissionDefinition] { NotificationsPermissions.definitions }
    public var migrations: [Migration] { NotificationsMigrations.all }
    public var ownedTables: [String] {
        [
            "notifications_channel_preferences", "notifications_devices", "notifications_items", "notifications_outbox",
            "notifications_preferences"
        ]
    }
    public var actions: [any Action.Type] {
        [ListNotifications.self, MarkNotificationsRead.self, DeleteNotification.self, NotificationPreferences.self, ChannelPreferences.self,
         SetChannelPreferences.self, RegisterDevice.self, ListDevices.self, ListOutbox.self, OutboxDue.self, AdvanceOutbox.self]
    }
    public var routes: [APIRoute] { NotificationsRoutes.all }
    public var dashboard: DashboardContribution? { NotificationsRoutes.unreadCount }
    public var adminStats: DashboardContribution? { NotificationsRoutes.unreadCount }
    public var commands: [any ParsableCommand.Type] { [NotificationsCommand.self] }
    public var settings: [SettingDefinition] { [NotificationsSettings.logPath.definition, NotificationsSettings.expiryDays.definition, NotificationsSettings.emailFrom.definition,
         NotificationsSettings.siteURL.definition] + PushSettings.all.map(\.definition) }
    public var eventHandlers: [EventHandler] { NotificationHandlers.all }
    /// Every server sends what is due; `notifications deliver` stays for a one-off run.
    public var backgroundJobs: [BackgroundJob] {
        [BackgroundJob("notifications.deliver", every: 5, when: OutboxDue.self, .init(), work: { kernel, school in
            _ = try DeliverOutbox.run(kernel, as: .localOperator, in: school)
        })]
    }
    public var strings: StringCatalog { Self.catalog }

    private static let catalog = StringCatalog.load(from: .module)
}
