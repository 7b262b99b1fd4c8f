import ArgumentParser
import Core
import Foundation
import Students

/// Clubs: describe what this feature does for a school here.
public struct ClubsModule: AppModule, CommandLineModule, HTTPModule {
    public init() {}

    public let id: ModuleID = "clubs"
    public let version = SemanticVersion(0, 1, 0)
    public var iconName: String { "square.grid.2x2" }
    /// Narrow "*" to the versions you have tested with, e.g. "^1.0.0".
    public var dependencies: [ModuleDependency] { [ModuleDependency("students", "*")] }
    public var permissions: [PermissionDefinition] { ClubsPermissions.definitions }
    public var migrations: [Migration] { ClubsMigrations.all }
    /// Every table the migrations create: only this module's code may name them. Views
    /// other modules may read go in `publishedViews`, named `clubs_v1_...`.
    public var ownedTables: [String] { ["clubs_items"] }
    public var actions: [any Action.Type] { [AddClubsItem.self, ListClubsItems.self] }
    public var commands: [any ParsableCommand.Type] { [ClubsCommand.self] }
    public var routes: [APIRoute] { ClubsRoutes.all }
    public var strings: StringCatalog { Self.catalog }

    private static let catalog = StringCatalog.load(from: .module)

    public func seedDemo(_ context: ActionContext, size: DemoSize) throws {
        _ = try AddClubsItem().perform(.init(title: context.localizer("clubs.demo.first-item")), in: context)
    }
}
