import Foundation
import HogwartsBase

/// A scope key: who may receive a change. A change is written once per key that may see it, and
/// a caller's keys are worked out on the server at pull time from their role and relationships.
///
/// Kinds: `school` (everyone in the school), `staff` (staff roles), `class:<id>` (the people who
/// teach the class: its register, its roster), `class-members:<id>` (everyone in the class, its
/// students and their guardians too: the class itself, its timetable; never classmates' attendance
/// or grades), `student:<id>` (the student, their guardians, their teachers), `user:<id>` (one account).
public struct SyncScopeKey: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let school = SyncScopeKey(rawValue: "school")
    public static let staff = SyncScopeKey(rawValue: "staff")
    public static func `class`(_ id: String) -> SyncScopeKey { SyncScopeKey(rawValue: "class:\(id)") }
    public static func classMembers(_ id: String) -> SyncScopeKey { SyncScopeKey(rawValue: "class-members:\(id)") }
    public static func student(_ id: String) -> SyncScopeKey { SyncScopeKey(rawValue: "student:\(id)") }
    public static func user(_ id: String) -> SyncScopeKey { SyncScopeKey(rawValue: "user:\(id)") }
    /// Another kind a module needs (`conversation:<id>`): `kind` is lowercase letters and hyphens.
    public static func other(_ kind: String, _ id: String) -> SyncScopeKey { SyncScopeKey(rawValue: "\(kind):\(id)") }

    /// `class` for `class:42`, the key itself for `school` and `staff`.
    public var kind: String { rawValue.split(separator: ":", maxSplits: 1).first.map(String.init) ?? rawValue }
    /// `42` for `class:42`, nil for `school` and `staff`.
    public var id: String? {
        guard let colon = rawValue.firstIndex(of: ":") else { return nil }
        return String(rawValue[rawValue.index(after: colon)...])
    }

    public var description: String { rawValue }
    public static func < (lhs: SyncScopeKey, rhs: SyncScopeKey) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The keys one caller may read, computed on the server (never taken from the client).
public struct SyncScope: Sendable, Equatable {
    public let keys: Set<SyncScopeKey>
    /// The entity types the caller receives: those of the modules on for the school. Part of the
    /// cursor's hash, so switching a module on or off answers the next pull with a reset.
    package var entityTypes: [String] = []

    public init(_ keys: some Sequence<SyncScopeKey>) { self.keys = Set(keys) }

    public func contains(_ key: SyncScopeKey) -> Bool { keys.contains(key) }

    /// The ids of one kind, sorted: `ids(of: "class")` is every class the caller receives.
    public func ids(of kind: String) -> [String] {
        keys.filter { $0.kind == kind }.compactMap(\.id).sorted()
    }

    /// The ids of one kind as a JSON array text, for `col IN (SELECT value FROM json_each(:ids))`:
    /// one cached statement whatever the number of ids.
    public func jsonIDs(of kind: String) -> String { Self.json(ids(of: kind)) }

    /// Any ids as a JSON array text (a `load`'s ids), for `json_each`.
    public static func json(_ ids: [String]) -> String {
        let data = (try? JSONEncoder().encode(ids)) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

/// What a module's sync code sees: the school's database inside the kernel's transaction, the
/// time, and (while computing a caller's scope) who is asking.
public final class SyncContext {
    public let database: SchoolDatabase
    public let schoolID: SchoolID
    public let now: Date
    /// The school's today, in its own time zone.
    public let today: CivilDate
    /// The caller when keys are computed for a pull or a snapshot; nil while recording changes.
    public let principal: Principal?
    let policy: AccessPolicy

    init(database: SchoolDatabase, now: Date, timeZone: TimeZone, principal: Principal?, policy: AccessPolicy) {
        self.database = database
        schoolID = database.schoolID
        self.now = now
        today = CivilDate(now, in: timeZone)
        self.principal = principal
        self.policy = policy
    }

    /// How far the caller's grant of `permission` reaches (nil without a caller or the grant): a
    /// scope rule gives a teacher their classes' keys, a school-wide reader the module's own key.
    public func scope(for permission: Permission) -> AccessScope? {
        principal.flatMap { policy.scope(of: $0.role, for: permission) }
    }
}

/// One entity as it stands now: its payload and the scope keys that may see it.
public struct SyncEntity: Sendable {
    /// camelCase keys, stable, additive only. The kernel adds `version` (the seq of its last change).
    public let data: [String: APIValue]
    public let scopes: [SyncScopeKey]

    public init(data: [String: APIValue], scopes: [SyncScopeKey]) {
        self.data = data
        self.scopes = scopes
    }
}

/// A table whose rows change an entity: the kernel puts triggers on it, so every write path
/// (CLI, HTTP, import, event handler, demo, raw SQL in a migration) marks the entity changed.
public struct SyncSource: Sendable, Hashable {
    public let table: String
    /// The column holding the entity's id (`student_id` in an enrolment changes the student).
    public let idColumn: String
    public let schoolColumn: String

    public init(table: String, idColumn: String = "id", schoolColumn: String = "school_id") {
        self.table = table
        self.idColumn = idColumn
        self.schoolColumn = schoolColumn
    }
}

/// A kind of record a module shares with offline apps (`attendance.record`).
///
/// At the end of every write transaction the kernel asks `load` for the entities whose source
/// rows changed; an id `load` leaves out is recorded as a delete, sent to the keys where the
/// entity was last seen. A key an entity left gets a delete too. `snapshot` lists the ids of
/// everything in a caller's scope, ascending, after `after`, at most `limit`.
public struct SyncEntityType: Sendable {
    public typealias Load = @Sendable (_ ids: [String], _ context: SyncContext) throws -> [String: SyncEntity]
    public typealias Snapshot = @Sendable (_ scope: SyncScope, _ after: String, _ limit: Int, _ context: SyncContext) throws -> [String]

    /// `<module>.<name>` or a name fixed by the wire protocol (`student`, `class`).
    public let type: String
    public let sources: [SyncSource]
    public let load: Load
    public let snapshot: Snapshot

    public init(_ type: String, sources: [SyncSource], load: @escaping Load, snapshot: @escaping Snapshot) {
        self.type = type
        self.sources = sources
        self.load = load
        self.snapshot = snapshot
    }
}
