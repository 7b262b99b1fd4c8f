import Foundation
import HogwartsBase

/// Which module owns which table and publishes which view, and which modules each may read
/// views of (its declared dependencies): built by the registry, consulted by `SchoolDatabase`.
///
/// A module's code may name its own tables and views, and the published views of a module it
/// declares as a dependency; never another module's table. Each distinct statement text is
/// tokenised once per module and its verdict remembered: the hot paths repeat the same texts.
public final class TableOwnership: @unchecked Sendable {
    struct Owner: Sendable, Hashable {
        let module: ModuleID
        let isView: Bool
    }

    private let owners: [String: Owner]
    fileprivate let dependencies: [ModuleID: Set<ModuleID>]
    /// Verdicts by module then statement text; guarded by `lock` (contexts run on many threads).
    private var verdicts: [ModuleID: [String: ModuleBoundaryError?]] = [:]
    private let lock = NSLock()

    /// No modules: nothing is owned, every statement passes.
    static let empty = TableOwnership(owners: [:], dependencies: [:])

    private init(owners: [String: Owner], dependencies: [ModuleID: Set<ModuleID>]) {
        self.owners = owners
        self.dependencies = dependencies
    }

    /// Checks every module's declarations: each name starts with the module's prefix
    /// (`attendance_`, views `attendance_v1_...`) and no name is declared twice.
    init(_ modules: [any AppModule]) throws {
        var owners: [String: Owner] = [:]
        var dependencies: [ModuleID: Set<ModuleID>] = [:]
        for module in modules {
            let prefix = Self.tablePrefix(of: module.id)
            for table in module.ownedTables {
                guard table.hasPrefix(prefix), !Self.isViewName(table, prefix: prefix), owners[table] == nil else {
                    throw KernelError.duplicateDeclaration(kind: "table", name: table)
                }
                owners[table] = Owner(module: module.id, isView: false)
            }
            for view in module.publishedViews {
                guard Self.isViewName(view, prefix: prefix), owners[view] == nil else {
                    throw KernelError.duplicateDeclaration(kind: "view", name: view)
                }
                owners[view] = Owner(module: module.id, isView: true)
            }
            dependencies[module.id] = Set(module.dependencies.map(\.moduleID))
        }
        self.owners = owners
        self.dependencies = dependencies
    }

    /// `students_` for `students`, `report-cards_` -> `report_cards_`: SQL names have no hyphens.
    public static func tablePrefix(of module: ModuleID) -> String {
        module.replacingOccurrences(of: "-", with: "_") + "_"
    }

    /// `<prefix>v<digits>_<name>`: a published view carries its contract's version in its name.
    static func isViewName(_ name: String, prefix: String) -> Bool {
        guard name.hasPrefix(prefix + "v") else { return false }
        let rest = name.dropFirst(prefix.count + 1)
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        return !digits.isEmpty && rest.dropFirst(digits.count).first == "_" && rest.count > digits.count + 1
    }

    /// Nil when `module`'s code may run `sql`; else the refusal naming both modules.
    /// The first call for a text tokenises it; later ones cost a dictionary look-up.
    func refusal(of sql: String, by module: ModuleID) -> ModuleBoundaryError? {
        lock.lock()
        if let known = verdicts[module]?[sql] {
            lock.unlock()
            return known
        }
        lock.unlock()
        let verdict = judge(sql, by: module)
        lock.lock()
        verdicts[module, default: [:]][sql] = .some(verdict)
        lock.unlock()
        return verdict
    }

    private func judge(_ sql: String, by module: ModuleID) -> ModuleBoundaryError? {
        for name in Self.identifiers(in: sql) {
            // The kernel's own tables (`schools`, `kernel_*`) are no module's to read or write.
            if name == "schools" || name.hasPrefix("kernel_") {
                return .foreignTable(module: module, table: name, owner: KernelSchema.moduleID)
            }
            guard let owner = owners[name], owner.module != module else { continue }
            if !owner.isView { return .foreignTable(module: module, table: name, owner: owner.module) }
            if dependencies[module]?.contains(owner.module) != true {
                return .undeclaredDependency(module: module, view: name, owner: owner.module)
            }
        }
        return nil
    }

    /// The identifiers of a statement, lowercased: words outside string literals and comments,
    /// without the names of `:parameters`; a double-quoted identifier counts as its content.
    static func identifiers(in sql: String) -> Set<String> {
        Set(ModuleSchema.words(in: sql))
    }
}

/// The module whose code is running on a `SchoolDatabase`, with the registry's owners to check it against.
package struct ModuleBoundary: Sendable {
    let ownership: TableOwnership
    let module: ModuleID

    func check(_ sql: String) throws {
        if let refusal = ownership.refusal(of: sql, by: module) { throw refusal }
    }
}

extension SchoolDatabase {
    /// Runs `body` as `module`'s code (a named query's provider while it answers), then restores
    /// the module that was running. Without a boundary (the kernel's own work) nothing changes.
    func running<T>(as module: ModuleID, _ body: () throws -> T) rethrows -> T {
        guard let previous = boundary else { return try body() }
        boundary = ModuleBoundary(ownership: previous.ownership, module: module)
        defer { boundary = previous }
        return try body()
    }

    /// Marks the code that runs next on this handle as `module`'s.
    package func enter(_ module: ModuleID, _ ownership: TableOwnership) {
        boundary = ModuleBoundary(ownership: ownership, module: module)
    }
}

/// A module's statement named a table or view it may not touch: a programming error in that
/// module, refused before it runs so modules stay free to change their own tables.
public enum ModuleBoundaryError: HogwartsError, Equatable {
    /// Another module's table: read what that module publishes instead.
    case foreignTable(module: ModuleID, table: String, owner: ModuleID)
    /// A published view of a module that `module` does not declare as a dependency.
    case undeclaredDependency(module: ModuleID, view: String, owner: ModuleID)

    public var messageKey: String {
        switch self {
        case .foreignTable: "kernel.error.foreign-table"
        case .undeclaredDependency: "kernel.error.undeclared-view-dependency"
        }
    }

    public var messageArguments: [String: String] {
        switch self {
        case .foreignTable(let module, let table, let owner): ["module": module, "table": table, "owner": owner]
        case .undeclaredDependency(let module, let view, let owner): ["module": module, "view": view, "owner": owner]
        }
    }

    public var exitStatus: ExitStatus { .internalError }
}

extension ActionContext {
    /// Runs a function `module` publishes for other modules (a typed read such as
    /// `Roster.classID`, an account created for a guardian) as `module`'s own code, so it may use
    /// its own tables while the caller may not. Allowed for `module` itself and for a caller that
    /// declares `module` as a dependency; a published function wraps its own statements with it.
    public func published<T>(by module: ModuleID, _ body: () throws -> T) throws -> T {
        guard let current = database.boundary, current.module != module else { return try body() }
        guard current.ownership.depends(current.module, on: module) else {
            throw ModuleBoundaryError.undeclaredDependency(module: current.module, view: "\(module) functions", owner: module)
        }
        return try database.running(as: module, body)
    }
}

extension TableOwnership {
    /// Whether `module` declares `dependency` among its dependencies.
    func depends(_ module: ModuleID, on dependency: ModuleID) -> Bool {
        dependencies[module]?.contains(dependency) == true
    }
}

extension Action {
    /// The module that declares the action: its id's prefix (the registry refuses any other).
    public static var moduleID: ModuleID { String(id.prefix { $0 != "." }) }
}

extension ModuleBoundary {
    /// Each sync entity type's module, for the kernel to run the type's `load` and `snapshot` as that module's code.
    static func bySyncType(_ registry: ModuleRegistry) -> [String: ModuleBoundary] {
        var boundaries: [String: ModuleBoundary] = [:]
        for module in registry.modules {
            for type in module.contributedSyncEntities where boundaries[type.type] == nil {
                boundaries[type.type] = ModuleBoundary(ownership: registry.ownership, module: module.id)
            }
        }
        return boundaries
    }
}
