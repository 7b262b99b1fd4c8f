import ArgumentParser

/// A module's stable identifier, such as `attendance`: lowercase letters, digits and hyphens.
/// It prefixes the module's tables, permissions, actions, events, settings and string keys.
public typealias ModuleID = String

/// A dependency on another module, with the versions of it this module works with.
public struct ModuleDependency: Sendable, Hashable {
    public let moduleID: ModuleID
    /// In `VersionRange` syntax: `^1.0.0`, `>=1.2.0 <2.0.0`, `*`, ...
    public let range: String

    /// A malformed range is reported by the registry at start, naming the module that declared it.
    public init(_ moduleID: ModuleID, _ range: String = "*") {
        self.moduleID = moduleID
        self.range = range
    }
}

/// A feature module: a value that describes everything it brings to the platform.
///
/// The FamilyHub `AppModule` is the ancestor: its main view becomes `commands` (and later
/// routes), its settings view becomes typed per-school `settings`, and `isAvailable` becomes the
/// per-school switch kept by the kernel. The host never names a module: it receives the list.
public protocol AppModule: Sendable {
    /// Stable identifier, e.g. `attendance`. Never changes once data exists.
    var id: ModuleID { get }
    var version: SemanticVersion { get }
    /// Name and description in Arabic and English; by default the catalog keys `<id>.module.name`
    /// and `<id>.module.description`.
    var name: LocalizedText { get }
    var summary: LocalizedText { get }
    /// SF Symbols-style icon name the mobile apps show for the module.
    var iconName: String { get }
    var dependencies: [ModuleDependency] { get }
    var permissions: [PermissionDefinition] { get }
    /// Append-only, in order. An applied migration is never edited: add a new one.
    var migrations: [Migration] { get }
    /// The tables this module's migrations create, each `<id>_...`: only this module's code may
    /// name them (`SchoolDatabase` refuses another module's statement that does).
    var ownedTables: [String] { get }
    /// Read-only views this module publishes as part of its contract, each `<id>_v<N>_...` and
    /// created by its migrations: modules that declare this one as a dependency may read them.
    /// A view is never changed incompatibly under the same name: publish `v2` beside it.
    var publishedViews: [String] { get }
    var actions: [any Action.Type] { get }
    /// Top-level CLI commands, each a swift-argument-parser command (usually a group named after the module).
    var commands: [any ParsableCommand.Type] { get }
    var settings: [SettingDefinition] { get }
    var publishedEvents: [any DomainEvent.Type] { get }
    var eventHandlers: [EventHandler] { get }
    /// Named queries this module answers for modules that do not depend on it (`core-named-queries.swift`).
    var queries: [NamedQueryProvider] { get }
    /// Arabic and English strings, loaded from the module's own resources.
    var strings: StringCatalog { get }
    /// Whether a school that has never switched this module gets it. Defaults to true.
    var enabledByDefault: Bool { get }
    /// HTTP routes, each running this module's actions (`<module>-routes.swift`).
    var routes: [APIRoute] { get }
    /// What this module adds to `GET /api/mobile/dashboard` and `GET /api/mobile/admin/stats`.
    var dashboard: DashboardContribution? { get }
    var adminStats: DashboardContribution? { get }
    /// Who runs commands, for the one module that signs people in (Auth). Nil for the others.
    var identityProvider: (any IdentityProvider)? { get }
    /// Pages this module adds to the web console (`/m/<id>/<path>`) and cards for the dashboard.
    var consolePages: [ConsolePage] { get }
    var consoleCards: [ConsoleCard] { get }
    /// How the console signs people in, for the one module that owns accounts (Auth). Nil for the others.
    var consoleIdentity: (any ConsoleIdentity)? { get }
    /// Records this module shares with offline apps, the keys it adds to a caller's sync scope,
    /// and the mutations apps may queue offline (`Core/Sync`, `/api/v1/sync/*`).
    var syncEntities: [SyncEntityType] { get }
    var syncScopes: SyncScopeRule? { get }
    var syncMutations: [SyncMutation] { get }
    /// Work `hogwarts serve` runs on its own, every few seconds, in each school where this module
    /// is on (sending what the outbox holds, say). Every server runs it; jobs claim their rows.
    var backgroundJobs: [BackgroundJob] { get }
    /// Fills a newly created demo school with realistic data. Runs as the operator, dependencies
    /// first, in the transaction that creates the school. Use `DemoRandom` so it is deterministic.
    func seedDemo(_ context: ActionContext, size: DemoSize) throws
}

extension AppModule {
    public var name: LocalizedText { LocalizedText(key: "\(id).module.name", catalog: strings) }
    public var summary: LocalizedText { LocalizedText(key: "\(id).module.description", catalog: strings) }
    public var iconName: String { "square.grid.2x2" }
    public var dependencies: [ModuleDependency] { [] }
    public var permissions: [PermissionDefinition] { [] }
    public var migrations: [Migration] { [] }
    public var ownedTables: [String] { [] }
    public var publishedViews: [String] { [] }
    public var actions: [any Action.Type] { [] }
    public var commands: [any ParsableCommand.Type] { [] }
    public var settings: [SettingDefinition] { [] }
    public var publishedEvents: [any DomainEvent.Type] { [] }
    public var eventHandlers: [EventHandler] { [] }
    public var queries: [NamedQueryProvider] { [] }
    public var enabledByDefault: Bool { true }
    public var routes: [APIRoute] { [] }
    public var dashboard: DashboardContribution? { nil }
    public var adminStats: DashboardContribution? { nil }
    public var identityProvider: (any IdentityProvider)? { nil }
    public var consolePages: [ConsolePage] { [] }
    public var consoleCards: [ConsoleCard] { [] }
    public var consoleIdentity: (any ConsoleIdentity)? { nil }
    public var syncEntities: [SyncEntityType] { [] }
    public var syncScopes: SyncScopeRule? { nil }
    public var syncMutations: [SyncMutation] { [] }
    public var backgroundJobs: [BackgroundJob] { [] }
    public func seedDemo(_ context: ActionContext, size: DemoSize) throws {}
}

/// Fields a module adds to a summary the kernel serves (the dashboard, the admin stats): their
/// shapes for the OpenAPI document, and how to compute them for the caller (through actions,
/// so the caller's permissions and scope apply). A field the caller's role does not get is left out.
public struct DashboardContribution: Sendable {
    public let fields: [(String, APISchema)]
    public let compute: @Sendable (APIRequest) async throws -> [String: APIValue]

    public init(fields: [(String, APISchema)], compute: @escaping @Sendable (APIRequest) async throws -> [String: APIValue]) {
        self.fields = fields
        self.compute = compute
    }
}
