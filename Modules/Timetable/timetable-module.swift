import ArgumentParser
import Core
import Foundation

/// Timetable: periods, weekly slots and real Week A/B (or longer) cycles from the school calendar.
public struct TimetableModule: AppModule, CommandLineModule, HTTPModule, SyncRecordedModule {
    public init() {}

    public let id: ModuleID = "timetable"
    public let version = SemanticVersion(1, 0, 0)
    public var iconName: String { "calendar" }
    public var dependencies: [ModuleDependency] { [ModuleDependency("students", "^1.0.0"), ModuleDependency("auth", "^1.0.0")] }
    public var permissions: [PermissionDefinition] { TimetablePermissions.definitions }
    public var migrations: [Migration] { TimetableMigrations.all }
    public var ownedTables: [String] { ["timetable_closures", "timetable_overrides", "timetable_periods", "timetable_slots"] }
    public var actions: [any Action.Type] {
        [CreatePeriod.self, CreateSlot.self, MoveSlot.self, DeleteSlot.self, AddClosure.self, SetWeekOverride.self,
         CycleWeeks.self, ViewTimetable.self, NowAndNext.self, ListPeriods.self, WeekLessons.self, ShowTimetableBuilder.self,
         UpdatePeriod.self, RemovePeriod.self]
    }
    public var commands: [any ParsableCommand.Type] { [TimetableCommand.self] }
    public var settings: [SettingDefinition] { TimetableSettings.definitions }
    public var queries: [NamedQueryProvider] { TimetablePublishedQueries.all }
    public var strings: StringCatalog { Self.catalog }
    public var routes: [APIRoute] { TimetableRoutes.all }
    public var syncEntities: [SyncEntityType] { TimetableSync.entities }
    public var dashboard: DashboardContribution? { TimetableRoutes.dashboard }

    private static let catalog = StringCatalog.load(from: .module)

    public func seedDemo(_ context: ActionContext, size: DemoSize) throws {
        try TimetableDemo.seed(context)
    }
}
