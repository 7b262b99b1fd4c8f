import ArgumentParser
import Core
import Foundation
import Students

/// OneRoster 1.2 (and 1.1) CSV: brings a school's roster in from its information system and
/// sends it back out. Every write goes through the Students and Auth actions; the module keeps
/// only its own map from each `sourcedId` to what it became, and the set-password codes of the
/// accounts it created.
public struct OneRosterModule: AppModule, CommandLineModule {
    public init() {}

    public let id: ModuleID = "oneroster"
    public let version = SemanticVersion(1, 0, 0)
    public var iconName: String { "arrow.left.arrow.right.square" }
    public var dependencies: [ModuleDependency] { [ModuleDependency("students", "^1.0.0"), ModuleDependency("auth", "^1.0.0")] }
    public var permissions: [PermissionDefinition] { OneRosterPermissions.definitions }
    public var migrations: [Migration] { OneRosterMigrations.all }
    public var ownedTables: [String] { ["oneroster_ids", "oneroster_set_password_codes"] }
    public var actions: [any Action.Type] { [ImportOneRoster.self, ExportOneRoster.self, RedeemSetPasswordCode.self] }
    public var commands: [any ParsableCommand.Type] { [OneRosterCommand.self] }
    public var settings: [SettingDefinition] { OneRosterSettings.definitions }
    public var strings: StringCatalog { Self.catalog }

    private static let catalog = StringCatalog.load(from: .module)
}
