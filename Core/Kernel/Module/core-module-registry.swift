import Foundation
import HogwartsBase

/// The resolved module graph: every module checked, in dependency order (dependencies first).
///
/// Built once at start. Anything inconsistent (a cycle, a missing or too-old dependency, a
/// malformed range, a duplicate id, an action or event that does not belong to its module)
/// stops the start with an error naming the modules and versions involved.
public struct ModuleRegistry: Sendable {
    /// Dependencies before dependents; ties keep alphabetical order, so output is stable.
    public let modules: [any AppModule]
    public let policy: AccessPolicy
    /// Core's strings merged with every module's.
    public let catalog: StringCatalog
    /// Who owns which table and view, checked on every module statement (`core-table-ownership.swift`).
    package let ownership: TableOwnership
    /// Each sync entity type's module boundary (who runs its load and snapshot), built once.
    package private(set) var syncBoundaries: [String: ModuleBoundary] = [:]
    private let byID: [ModuleID: any AppModule]
    private let actionOwners: [String: ModuleID]
    let handlersByEvent: [String: [(module: ModuleID, handler: EventHandler)]]
    package let settingsByKey: [String: (module: ModuleID, definition: SettingDefinition)]

    /// No feature modules: what commands see outside `HogwartsCommandLine.main`.
    package static let kernelOnly = ModuleRegistry(validated: [], catalog: CoreResources.catalog)

    private init(validated modules: [any AppModule], catalog: StringCatalog) {
        self.modules = modules
        policy = AccessPolicy(definitions: KernelPermissions.definitions)
        self.catalog = catalog
        ownership = .empty
        byID = [:]
        actionOwners = [:]
        handlersByEvent = [:]
        settingsByKey = [:]
    }

    public init(_ modules: [any AppModule]) throws {
        var byID: [ModuleID: any AppModule] = [:]
        for module in modules {
            guard Self.isValidID(module.id), module.id != KernelSchema.moduleID else {
                throw KernelError.invalidModuleID(module.id)
            }
            guard byID[module.id] == nil else { throw KernelError.duplicateModule(module.id) }
            byID[module.id] = module
        }
        try Self.checkDependencies(byID)
        self.modules = try Self.dependencyOrder(byID)
        self.byID = byID

        var actionOwners: [String: ModuleID] = [:]
        var permissions: [PermissionDefinition] = KernelPermissions.definitions
        var publishedEvents: Set<String> = []
        var settings: [String: (module: ModuleID, definition: SettingDefinition)] = [:]
        var catalog = CoreResources.catalog
        for module in self.modules {
            for action in module.actions {
                try Self.claim(action.id, kind: "action", by: module.id, in: &actionOwners)
            }
            for definition in module.permissions {
                guard definition.permission.id.hasPrefix("\(module.id).") else {
                    throw KernelError.duplicateDeclaration(kind: "permission", name: definition.permission.id)
                }
            }
            permissions += module.permissions
            for event in module.publishedEvents {
                guard event.name.hasPrefix("\(module.id)."), publishedEvents.insert(event.name).inserted else {
                    throw KernelError.duplicateDeclaration(kind: "event", name: event.name)
                }
            }
            for setting in module.settings {
                guard setting.moduleID == module.id, settings[setting.fullKey] == nil else {
                    throw KernelError.duplicateDeclaration(kind: "setting", name: setting.fullKey)
                }
                settings[setting.fullKey] = (module.id, setting)
            }
            catalog = catalog.merging(module.strings)
        }
        var handlersByEvent: [String: [(module: ModuleID, handler: EventHandler)]] = [:]
        var handlerOwners: [String: ModuleID] = [:]
        for module in self.modules {
            for handler in module.eventHandlers {
                try Self.claim(handler.id, kind: "handler", by: module.id, in: &handlerOwners)
                guard publishedEvents.contains(handler.eventName) else {
                    if handler.isOptional { continue }
                    throw KernelError.unknownEvent(handler: handler.id, event: handler.eventName)
                }
                handlersByEvent[handler.eventName, default: []].append((module.id, handler))
            }
        }
        var policy = AccessPolicy(definitions: permissions)
        for module in self.modules {
            for query in module.queries { try policy.queries.add(query, by: module.id) }
        }
        self.actionOwners = actionOwners
        self.policy = policy
        self.handlersByEvent = handlersByEvent
        self.settingsByKey = settings
        self.catalog = catalog
        ownership = try TableOwnership(self.modules)
        syncBoundaries = ModuleBoundary.bySyncType(self)
    }

    /// `[a-z][a-z0-9-]*`, checked by hand: a regular expression here would compile ICU's tables
    /// on every start of every command.
    public static func isValidID(_ id: ModuleID) -> Bool {
        guard let first = id.unicodeScalars.first, ("a"..."z").contains(first) else { return false }
        return id.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    public func module(_ id: ModuleID) throws -> any AppModule {
        guard let module = byID[id] else { throw KernelError.unknownModule(id) }
        return module
    }

    /// The module that declared the action, or nil when no module did.
    public func owner(ofAction actionID: String) -> ModuleID? { actionOwners[actionID] }

    /// `id` and everything it depends on, directly or not, dependencies first.
    public func dependencyClosure(of id: ModuleID) -> [ModuleID] {
        var needed: Set<ModuleID> = [id]
        var frontier = [id]
        while let next = frontier.popLast() {
            for dependency in byID[next]?.dependencies ?? [] where needed.insert(dependency.moduleID).inserted {
                frontier.append(dependency.moduleID)
            }
        }
        return modules.map(\.id).filter(needed.contains)
    }

    /// Modules that depend on `id`, directly or not, dependents last.
    public func dependents(of id: ModuleID) -> [ModuleID] {
        modules.map(\.id).filter { $0 != id && dependencyClosure(of: $0).contains(id) }
    }

    private static func claim(_ name: String, kind: String, by module: ModuleID, in owners: inout [String: ModuleID]) throws {
        guard name.hasPrefix("\(module)."), owners[name] == nil else {
            throw KernelError.duplicateDeclaration(kind: kind, name: name)
        }
        owners[name] = module
    }

    private static func checkDependencies(_ byID: [ModuleID: any AppModule]) throws {
        for module in byID.values.sorted(by: { $0.id < $1.id }) {
            for dependency in module.dependencies {
                guard let range = try? VersionRange(dependency.range) else {
                    throw KernelError.invalidDependencyRange(module: module.id, dependency: dependency.moduleID, range: dependency.range)
                }
                guard let provider = byID[dependency.moduleID] else {
                    throw KernelError.missingDependency(
                        module: module.id, version: module.version, dependency: dependency.moduleID, range: dependency.range)
                }
                guard range.contains(provider.version) else {
                    throw KernelError.unsatisfiedDependency(
                        module: module.id, version: module.version, dependency: dependency.moduleID,
                        range: dependency.range, found: provider.version)
                }
            }
        }
    }

    /// Depth-first topological sort; meeting a module already on the path is a cycle, reported
    /// from its first appearance back to itself (`a -> b -> a`).
    private static func dependencyOrder(_ byID: [ModuleID: any AppModule]) throws -> [any AppModule] {
        var ordered: [any AppModule] = []
        var done: Set<ModuleID> = []
        var path: [ModuleID] = []

        func visit(_ id: ModuleID) throws {
            if done.contains(id) { return }
            if let start = path.firstIndex(of: id) {
                throw KernelError.dependencyCycle(Array(path[start...]) + [id])
            }
            guard let module = byID[id] else { return }
            path.append(id)
            for dependency in module.dependencies.sorted(by: { $0.moduleID < $1.moduleID }) {
                try visit(dependency.moduleID)
            }
            path.removeLast()
            done.insert(id)
            ordered.append(module)
        }

        for id in byID.keys.sorted() {
            try visit(id)
        }
        return ordered
    }
}
