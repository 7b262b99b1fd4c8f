import Foundation
import HogwartsBase

/// A setting's value for one school, as `settings list` shows it.
public struct SettingState: Codable, Sendable {
    public let key: String
    public let value: String
    public let isDefault: Bool
    public let expected: String
}

extension Kernel {
    /// Every setting of the school's enabled modules with its value (or default).
    public func settings(for schoolReference: String) throws -> [SettingState] {
        try store.read { db in
            try requireMigrated(db)
            let school = try SchoolRecords.find(schoolReference, in: db)
            let enabled = try ModuleSwitchRecords.enabled(for: school.id, registry: registry, in: db)
            var stored: [String: String] = [:]
            for row in try db.fetchAll(sql: "SELECT key, value FROM kernel_settings WHERE school_id = ?", arguments: [school.id]) {
                stored[row.string("key")] = row.string("value")
            }
            return registry.settingsByKey.values
                .filter { enabled.contains($0.module) }
                .map(\.definition)
                .sorted { $0.fullKey < $1.fullKey }
                .map { definition in
                    let value = stored[definition.fullKey]
                    return SettingState(key: definition.fullKey, value: value ?? definition.defaultText, isDefault: value == nil, expected: definition.expected)
                }
        }
    }

    /// Sets one school's value of `<module>.<key>` after checking it; returns the stored text.
    @discardableResult
    public func setSetting(_ key: String, to text: String, for schoolReference: String, by principal: Principal, force: Bool = false) throws -> String {
        guard let (module, definition) = registry.settingsByKey[key] else { throw KernelError.unknownSetting(key) }
        guard let normalized = definition.normalize(text) else {
            throw KernelError.invalidSetting(key: key, value: text, reason: definition.expected)
        }
        if definition.isFilePath && !force {
            let folder = databaseFolder
            let target = SettingsReader.resolve(normalized, in: folder)
            // A server database has no folder (the working directory stands in, and the server's
            // is not this command's): an absolute path the operator at the machine types is theirs
            // to choose. Anyone else, and every relative path, stays inside the folder.
            let operatorsChoice = store.engine.isServer && principal == .localOperator && normalized.hasPrefix("/")
            guard operatorsChoice || target.path.hasPrefix(folder.path + "/") else {
                throw KernelError.settingPathOutside(key: key, path: target.path, folder: folder.path)
            }
        }
        return try store.write { db in
            try requireMigrated(db)
            let school = try SchoolRecords.find(schoolReference, in: db)
            try authorize(principal, KernelPermissions.manageSettings, in: school, db: db)
            guard try ModuleSwitchRecords.enabled(for: school.id, registry: registry, in: db).contains(module) else {
                throw KernelError.moduleDisabled(module: module, school: school.slug)
            }
            let time = now()
            try db.execute(sql: """
                INSERT INTO kernel_settings (school_id, key, value, updated_at, updated_by) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (school_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at, updated_by = excluded.updated_by
                """, arguments: [school.id, key, normalized, time, principal.userID])
            try AuditRecords.append(school: school.id, principal: principal, action: "kernel.setting.set", outcome: .succeeded, detail: "\(key)=\(normalized)", at: time, in: db)
            return normalized
        }
    }
}
