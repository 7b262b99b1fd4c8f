import ArgumentParser
import Core
import Foundation
import Students

/// ID cards: the signed-in student's or staff member's school ID card, with a QR payload the
/// school signs (its own HMAC key, a compact JWS) and its staff can check.
public struct IdCardsModule: AppModule, CommandLineModule, HTTPModule {
    public init() {}

    public let id: ModuleID = "id-cards"
    public let version = SemanticVersion(0, 1, 0)
    public var iconName: String { "person.text.rectangle" }
    public var dependencies: [ModuleDependency] { [ModuleDependency("auth", "^1.0.0"), ModuleDependency("students", "^1.0.0")] }
    public var permissions: [PermissionDefinition] { IdCardsPermissions.definitions }
    public var migrations: [Migration] { IdCardsMigrations.all }
    /// Every table the migrations create: only this module's code may name them.
    public var ownedTables: [String] { ["id_cards_keys"] }
    public var actions: [any Action.Type] { [ShowIdCard.self, VerifyIdCard.self] }
    public var commands: [any ParsableCommand.Type] { [IdCardsCommand.self] }
    public var routes: [APIRoute] { IdCardsRoutes.all }
    public var queries: [NamedQueryProvider] { IdCardsPublishedQueries.all }
    public var strings: StringCatalog { Self.catalog }

    private static let catalog = StringCatalog.load(from: .module)

    /// The demo school's signing key, so its first card is not also its first write.
    public func seedDemo(_ context: ActionContext, size: DemoSize) throws {
        _ = try IdCardSigning.currentKey(context)
    }
}
