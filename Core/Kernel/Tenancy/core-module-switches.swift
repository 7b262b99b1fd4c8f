import Foundation
import HogwartsBase

/// One module's state for one school, as `modules list --school` shows it.
public struct ModuleState: Codable, Sendable {
    public let module: ModuleID
    public let version: SemanticVersion
    public let dependencies: [String]
    public let enabled: Bool?
}

extension Kernel {
    /// Modules in force for a school: switched on (or on by default) with all their dependencies in force.
    public func enabledModules(for schoolReference: String) throws -> Set<ModuleID> {
        try store.read { db in
            try requireMigrated(db)
            let school = try SchoolRecords.find(schoolReference, in: db)
            return try ModuleSwitchRecords.enabled(for: school.id, registry: registry, in: db)
        }
    }

    /// Switches a module on for one school. Its dependencies must already be on there; the
    /// error names the missing ones. Data kept while it was off is there again.
    public func enable(_ moduleID: ModuleID, for schoolReference: String, by principal: Principal) throws {
        _ = try registry.module(moduleID)
        try store.write { db in
            try requireMigrated(db)
            let school = try SchoolRecords.find(schoolReference, in: db)
            try authorize(principal, KernelPermissions.manageModules, in: school, db: db)
            let enabled = try ModuleSwitchRecords.enabled(for: school.id, registry: registry, in: db)
            let missing = registry.dependencyClosure(of: moduleID).filter { $0 != moduleID && !enabled.contains($0) }
            guard missing.isEmpty else { throw KernelError.enableNeedsDependencies(module: moduleID, missing: missing) }
            try ModuleSwitchRecords.set(moduleID, enabled: true, school: school.id, by: principal, at: now(), in: db)
            try AuditRecords.append(school: school.id, principal: principal, action: "kernel.module.enable", outcome: .succeeded, detail: moduleID, at: now(), in: db)
        }
    }

    /// Switches a module off for one school, keeping every row. Refused while enabled modules
    /// depend on it, unless `cascade`, which switches those off too. Returns what was switched
    /// off, dependents first.
    @discardableResult
    public func disable(_ moduleID: ModuleID, for schoolReference: String, cascade: Bool = false, by principal: Principal) throws -> [ModuleID] {
        _ = try registry.module(moduleID)
        return try store.write { db in
            try requireMigrated(db)
            let school = try SchoolRecords.find(schoolReference, in: db)
            try authorize(principal, KernelPermissions.manageModules, in: school, db: db)
            let enabled = try ModuleSwitchRecords.enabled(for: school.id, registry: registry, in: db)
            let dependents = registry.dependents(of: moduleID).filter(enabled.contains)
            guard dependents.isEmpty || cascade else {
                throw KernelError.disableHasDependents(module: moduleID, dependents: dependents)
            }
            let switchedOff = Array(dependents.reversed()) + [moduleID]
            for id in switchedOff {
                try ModuleSwitchRecords.set(id, enabled: false, school: school.id, by: principal, at: now(), in: db)
                try AuditRecords.append(school: school.id, principal: principal, action: "kernel.module.disable", outcome: .succeeded, detail: id, at: now(), in: db)
            }
            return switchedOff
        }
    }

    /// Every module with its version and dependencies, and its state for a school when one is given.
    public func moduleStates(for schoolReference: String?) throws -> [ModuleState] {
        ModuleState.listing(registry, enabled: try schoolReference.map { try enabledModules(for: $0) })
    }
}

extension ModuleState {
    /// Every module of the registry, with whether it is on when `enabled` is given.
    package static func listing(_ registry: ModuleRegistry, enabled: Set<ModuleID>?) -> [ModuleState] {
        registry.modules.map { module in
            ModuleState(
                module: module.id,
                version: module.version,
                dependencies: module.dependencies.map { "\($0.moduleID) \($0.range)" },
                enabled: enabled.map { $0.contains(module.id) })
        }
    }
}

package enum ModuleSwitchRecords {
    static func set(_ moduleID: ModuleID, enabled: Bool, school: SchoolID, by principal: Principal, at time: Date, in db: any StorageConnection) throws {
        try db.execute(sql: """
            INSERT INTO kernel_module_switches (school_id, module_id, enabled, changed_at, changed_by)
            VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (school_id, module_id) DO UPDATE SET
                enabled = excluded.enabled, changed_at = excluded.changed_at, changed_by = excluded.changed_by
            """, arguments: [school, moduleID, enabled, time, principal.userID])
    }

    /// A module is in force when its switch is on (or, never switched, it is on by default) and
    /// every module it depends on is in force. Registry order puts dependencies first.
    package static func enabled(for school: SchoolID, registry: ModuleRegistry, in db: any StorageConnection) throws -> Set<ModuleID> {
        var switches: [ModuleID: Bool] = [:]
        try db.query("SELECT module_id, enabled FROM kernel_module_switches WHERE school_id = ?", SQLBindings([school]), refusingWrites: false) { columns in
            switches[columns.string(0)] = columns.int(1) != 0
            return true
        }
        var enabled: Set<ModuleID> = []
        for module in registry.modules where switches[module.id] ?? module.enabledByDefault {
            if module.dependencies.allSatisfy({ enabled.contains($0.moduleID) }) {
                enabled.insert(module.id)
            }
        }
        return enabled
    }
}
