import HogwartsBase

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

/// A feature module: the domain part of what it brings to the platform, which every module
/// implements. What it adds to a surface is a protocol of that surface's layer, adopted as
/// needed: `CommandLineModule` (HogwartsCLI), `HTTPModule` (HogwartsHTTP), `ConsoleModule`
/// (HogwartsConsole), `SyncModule` (HogwartsSync) and `IdentityModule` (the kernel's access).
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
    var settings: [SettingDefinition] { get }
    var publishedEvents: [any DomainEvent.Type] { get }
    var eventHandlers: [EventHandler] { get }
    /// Named queries this module answers for modules that do not depend on it (`core-named-queries.swift`).
    var queries: [NamedQueryProvider] { get }
    /// Arabic and English strings, loaded from the module's own resources.
    var strings: StringCatalog { get }
    /// Whether a school that has never switched this module gets it. Defaults to true.
    var enabledByDefault: Bool { get }
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
    public var settings: [SettingDefinition] { [] }
    public var publishedEvents: [any DomainEvent.Type] { [] }
    public var eventHandlers: [EventHandler] { [] }
    public var queries: [NamedQueryProvider] { [] }
    public var enabledByDefault: Bool { true }
    public var backgroundJobs: [BackgroundJob] { [] }
    public func seedDemo(_ context: ActionContext, size: DemoSize) throws {}
}
