/// An error a person reads: a catalog key, its arguments and the process exit status.
///
/// Every message says what went wrong and what to do next, in Arabic and English.
public protocol HogwartsError: Error, Sendable {
    var messageKey: String { get }
    var messageArguments: [String: String] { get }
    var exitStatus: ExitStatus { get }
}

extension HogwartsError {
    public var messageArguments: [String: String] { [:] }
    public var exitStatus: ExitStatus { .failure }
}

/// Process exit statuses, following BSD sysexits so scripts can tell failures apart.
public enum ExitStatus: Int32, Sendable {
    case failure = 1
    case usage = 64
    case invalidData = 65
    case notFound = 66
    case unavailable = 69
    case internalError = 70
    case ioError = 74
    case conflict = 75
    case permissionDenied = 77
    case configuration = 78
}

/// A module's input error: the key of a message in the module's catalog and its arguments.
/// Thrown from `validate` so nothing is written.
public struct InputError: HogwartsError, Equatable {
    public let messageKey: String
    public let messageArguments: [String: String]
    public var exitStatus: ExitStatus { .invalidData }

    public init(_ key: String, _ arguments: [String: String] = [:]) {
        messageKey = key
        messageArguments = arguments
    }
}

/// Errors raised by the kernel itself. Keys live in Core's catalog under `kernel.error.*`.
public enum KernelError: HogwartsError, Equatable {
    case invalidVersionRange(String)
    case invalidModuleID(ModuleID)
    case duplicateModule(ModuleID)
    case dependencyCycle([ModuleID])
    case missingDependency(module: ModuleID, version: SemanticVersion, dependency: ModuleID, range: String)
    case unsatisfiedDependency(module: ModuleID, version: SemanticVersion, dependency: ModuleID, range: String, found: SemanticVersion)
    case invalidDependencyRange(module: ModuleID, dependency: ModuleID, range: String)
    case unknownModule(ModuleID)
    case unknownEvent(handler: String, event: String)
    case duplicateDeclaration(kind: String, name: String)
    case migrationChanged(module: ModuleID, migration: String)
    case migrationFailed(module: ModuleID, migration: String, reason: String)
    case tableWithoutSchool(module: ModuleID, table: String)
    case pendingMigrations(Int)
    case unknownSchool(String)
    case schoolExists(String)
    case invalidSlug(String)
    case invalidTimeZone(String)
    case enableNeedsDependencies(module: ModuleID, missing: [ModuleID])
    case disableHasDependents(module: ModuleID, dependents: [ModuleID])
    case moduleDisabled(module: ModuleID, school: String)
    case permissionDenied(permission: String, role: Role)
    case outsideSchool(school: String)
    case actionNotRegistered(String)
    case requestIDReused(requestID: String, action: String)
    case unscopedStatement(String)
    case unknownSetting(String)
    case invalidSetting(key: String, value: String, reason: String)
    case settingPathOutside(key: String, path: String, folder: String)
    case notAHogwartsDatabase(String)
    case newerDatabase(path: String, found: String, supported: String)
    case fileExists(String)
    case fileMissing(String)
    /// A command other than `migrate`, `demo` or `school create` named a database file that is not there.
    case databaseMissing(String)
    /// `backup --keep` names a folder that does not exist or is a file.
    case backupFolderMissing(String)
    case databaseInUse(String)
    case readOnlyDatabase(String)
    case corruptDatabase(path: String, detail: String)
    /// Backup or restore asked of an engine whose server has its own tools (PostgreSQL: pg_dump, pg_restore).
    case backupNeedsServerTools(database: String)
    /// `demo` on a server database that already holds schools: nothing there is a file to replace.
    case demoNeedsEmptyServerDatabase(database: String)
    case storage(String)
    /// The database did not answer in time, or refused for now (a lock held too long, a server
    /// shutting down, no connection free): worth trying again in a moment. The detail is for the log.
    case databaseUnavailable(String)
    case invalidTrustedProxy(String)
    /// `hogwarts config` found variables that `serve` would refuse to start with (named).
    case configurationRefused([String])
    /// The file that seals the API signing keys is missing, unreadable or too short.
    case signingSecretUnreadable(String)
    /// The API signing keys were sealed under another secret than this server's.
    case signingSecretMismatch

    /// Busy or failing storage, worth trying again in a moment; a refusal by the rules is not.
    public var isWorthRetrying: Bool {
        switch self {
        case .storage, .databaseUnavailable, .databaseInUse, .readOnlyDatabase, .pendingMigrations: true
        default: false
        }
    }

    public var messageKey: String {
        switch self {
        case .invalidVersionRange: "kernel.error.invalid-version-range"
        case .invalidModuleID: "kernel.error.invalid-module-id"
        case .duplicateModule: "kernel.error.duplicate-module"
        case .dependencyCycle: "kernel.error.dependency-cycle"
        case .missingDependency: "kernel.error.missing-dependency"
        case .unsatisfiedDependency: "kernel.error.unsatisfied-dependency"
        case .invalidDependencyRange: "kernel.error.invalid-dependency-range"
        case .unknownModule: "kernel.error.unknown-module"
        case .unknownEvent: "kernel.error.unknown-event"
        case .duplicateDeclaration: "kernel.error.duplicate-declaration"
        case .migrationChanged: "kernel.error.migration-changed"
        case .migrationFailed: "kernel.error.migration-failed"
        case .tableWithoutSchool: "kernel.error.table-without-school"
        case .pendingMigrations: "kernel.error.pending-migrations"
        case .unknownSchool: "kernel.error.unknown-school"
        case .schoolExists: "kernel.error.school-exists"
        case .invalidSlug: "kernel.error.invalid-slug"
        case .invalidTimeZone: "kernel.error.invalid-time-zone"
        case .enableNeedsDependencies: "kernel.error.enable-needs-dependencies"
        case .disableHasDependents: "kernel.error.disable-has-dependents"
        case .moduleDisabled: "kernel.error.module-disabled"
        case .permissionDenied: "kernel.error.permission-denied"
        case .outsideSchool: "kernel.error.outside-school"
        case .actionNotRegistered: "kernel.error.action-not-registered"
        case .requestIDReused: "kernel.error.request-id-reused"
        case .unscopedStatement: "kernel.error.unscoped-statement"
        case .unknownSetting: "kernel.error.unknown-setting"
        case .invalidSetting: "kernel.error.invalid-setting"
        case .settingPathOutside: "kernel.error.setting-path-outside"
        case .notAHogwartsDatabase: "kernel.error.not-a-hogwarts-database"
        case .signingSecretUnreadable: "kernel.error.signing-secret-unreadable"
        case .signingSecretMismatch: "kernel.error.signing-secret-mismatch"
        case .newerDatabase: "kernel.error.newer-database"
        case .fileExists: "kernel.error.file-exists"
        case .fileMissing: "kernel.error.file-missing"
        case .databaseMissing: "kernel.error.database-missing"
        case .backupFolderMissing: "kernel.error.backup-folder-missing"
        case .databaseInUse: "kernel.error.database-in-use"
        case .readOnlyDatabase: "kernel.error.read-only-database"
        case .corruptDatabase: "kernel.error.corrupt-database"
        case .backupNeedsServerTools: "kernel.error.backup-needs-server-tools"
        case .demoNeedsEmptyServerDatabase: "kernel.error.demo-needs-empty-server-database"
        case .storage: "kernel.error.storage"
        case .databaseUnavailable: "kernel.error.database-unavailable"
        case .invalidTrustedProxy: "kernel.error.invalid-trusted-proxy"
        case .configurationRefused: "kernel.error.configuration-refused"
        }
    }

    public var messageArguments: [String: String] {
        switch self {
        case .invalidVersionRange(let range): ["range": range]
        case .invalidModuleID(let id), .duplicateModule(let id), .unknownModule(let id): ["module": id]
        case .dependencyCycle(let path): ["path": path.joined(separator: " -> ")]
        case .missingDependency(let module, let version, let dependency, let range):
            ["module": module, "version": version.description, "dependency": dependency, "range": range]
        case .unsatisfiedDependency(let module, let version, let dependency, let range, let found):
            ["module": module, "version": version.description, "dependency": dependency, "range": range, "found": found.description]
        case .invalidDependencyRange(let module, let dependency, let range):
            ["module": module, "dependency": dependency, "range": range]
        case .unknownEvent(let handler, let event): ["handler": handler, "event": event]
        case .duplicateDeclaration(let kind, let name): ["kind": kind, "name": name]
        case .migrationChanged(let module, let migration): ["module": module, "migration": migration]
        case .migrationFailed(let module, let migration, let reason): ["module": module, "migration": migration, "reason": reason]
        case .tableWithoutSchool(let module, let table): ["module": module, "table": table]
        case .pendingMigrations(let count): ["count": String(count)]
        case .unknownSchool(let school), .schoolExists(let school), .invalidSlug(let school): ["school": school]
        case .invalidTimeZone(let zone): ["zone": zone]
        case .enableNeedsDependencies(let module, let missing): ["module": module, "missing": missing.joined(separator: ", ")]
        case .disableHasDependents(let module, let dependents): ["module": module, "dependents": dependents.joined(separator: ", ")]
        case .moduleDisabled(let module, let school): ["module": module, "school": school]
        case .permissionDenied(let permission, let role): ["permission": permission, "role": role.rawValue]
        case .outsideSchool(let school): ["school": school]
        case .actionNotRegistered(let action): ["action": action]
        case .requestIDReused(let requestID, let action): ["request": requestID, "action": action]
        case .unscopedStatement(let sql): ["sql": sql]
        case .unknownSetting(let key): ["key": key]
        case .invalidSetting(let key, let value, let reason): ["key": key, "value": value, "reason": reason]
        case .settingPathOutside(let key, let path, let folder): ["key": key, "path": path, "folder": folder]
        case .notAHogwartsDatabase(let path), .fileExists(let path), .fileMissing(let path), .databaseMissing(let path), .backupFolderMissing(let path),
             .databaseInUse(let path), .readOnlyDatabase(let path): ["path": path]
        case .corruptDatabase(let path, let detail): ["path": path, "detail": detail]
        case .newerDatabase(let path, let found, let supported): ["path": path, "found": found, "supported": supported]
        case .backupNeedsServerTools(let database), .demoNeedsEmptyServerDatabase(let database): ["database": database]
        case .storage(let detail): ["detail": detail]
        case .databaseUnavailable: [:]
        case .invalidTrustedProxy(let entry): ["entry": entry]
        case .configurationRefused(let variables): ["variables": variables.joined(separator: ", ")]
        case .signingSecretUnreadable(let path): ["path": path]
        case .signingSecretMismatch: [:]
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .invalidVersionRange, .invalidModuleID, .invalidSlug, .invalidTimeZone, .invalidSetting, .settingPathOutside: .usage
        case .unknownModule, .unknownSchool, .unknownSetting, .fileMissing, .databaseMissing, .backupFolderMissing: .notFound
        case .moduleDisabled, .pendingMigrations: .unavailable
        case .permissionDenied, .outsideSchool: .permissionDenied
        case .schoolExists, .requestIDReused, .fileExists, .enableNeedsDependencies, .disableHasDependents, .databaseInUse,
             .demoNeedsEmptyServerDatabase: .conflict
        case .notAHogwartsDatabase, .newerDatabase, .migrationChanged, .corruptDatabase: .invalidData
        case .readOnlyDatabase: .permissionDenied
        case .backupNeedsServerTools: .unavailable
        case .storage: .ioError
        case .databaseUnavailable: .unavailable
        default: .configuration
        }
    }
}

extension KernelError {
    /// What a client over the network is told of a storage failure: that the database is not
    /// answering, never the engine's own text (which names hosts, ports and files).
    public static func publicFace(of error: any Error) -> any Error {
        switch error {
        case KernelError.storage, KernelError.databaseUnavailable: KernelError.databaseUnavailable("")
        default: error
        }
    }
}
