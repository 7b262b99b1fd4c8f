import ArgumentParser
import Core
import Foundation

/// Attendance: taking the register, QR check-in, excuses and advance notices, history and statistics.
public struct AttendanceModule: AppModule, CommandLineModule, HTTPModule, SyncModule {
    public init() {}

    public let id: ModuleID = "attendance"
    public let version = SemanticVersion(1, 0, 0)
    public var iconName: String { "checklist" }
    public var dependencies: [ModuleDependency] { [ModuleDependency("students", "^1.0.0")] }
    public var permissions: [PermissionDefinition] { AttendancePermissions.definitions }
    public var migrations: [Migration] { AttendanceMigrations.all }
    public var ownedTables: [String] {
        [
            "attendance_changes", "attendance_check_in_windows", "attendance_excuses", "attendance_notices",
            "attendance_records", "attendance_secrets"
        ]
    }
    public var actions: [any Action.Type] {
        [TakeAttendance.self, TakeRegisters.self, ClassRegister.self, OpenCheckIn.self, CheckIn.self, SubmitExcuse.self, ReviewExcuse.self, ListExcuses.self,
         SubmitNotice.self, ReviewNotice.self, AttendanceHistory.self, AttendanceStats.self, ExportEdFi.self, ExportEdFiEvents.self,
         AttendanceRecords.self, AttendanceSummary.self, AttendanceToday.self, MarkStudents.self, CheckInByCard.self]
    }
    public var commands: [any ParsableCommand.Type] { [AttendanceCommand.self] }
    public var settings: [SettingDefinition] { AttendanceSettings.definitions }
    public var publishedEvents: [any DomainEvent.Type] { [StudentMarkedAbsent.self, ExcuseDecided.self] }
    public var queries: [NamedQueryProvider] { AttendancePublishedQueries.all }
    public var strings: StringCatalog { Self.catalog }
    public var routes: [APIRoute] { AttendanceRoutes.all }
    public var syncEntities: [SyncEntityType] { AttendanceSync.entities }
    public var syncScopes: SyncScopeRule? { AttendanceSync.scopes }
    public var syncMutations: [SyncMutation] { AttendanceSync.mutations }
    public var dashboard: DashboardContribution? { AttendanceRoutes.dashboard }
    public var adminStats: DashboardContribution? { AttendanceRoutes.adminStats }

    private static let catalog = StringCatalog.load(from: .module)

    public func seedDemo(_ context: ActionContext, size: DemoSize) throws {
        try AttendanceDemo.seed(context, size: size)
    }
}
