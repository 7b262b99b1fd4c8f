import Foundation
import HogwartsBase

/// One unit of work, whatever the transport: the CLI, the HTTP API and the offline sync replay
/// all run the same action, so its rules live in one place.
///
/// The kernel runs an action like this: the module must be enabled for the school, the
/// principal must hold `permission` there, then `validate` (read-only) and `perform` run in
/// one transaction with the audit record and any published events. A failure anywhere rolls
/// everything back.
public protocol Action: Sendable {
    associatedtype Input: Codable & Sendable
    associatedtype Output: Codable & Sendable

    /// `<module>.<verb>`, e.g. `attendance.take`. Declared by exactly one module.
    static var id: String { get }
    static var permission: Permission { get }
    /// Reads run in a read transaction with no audit record and no idempotency key.
    static var isReadOnly: Bool { get }

    init()

    /// Checks the input against the database before anything is written. The connection is
    /// read-only here: a write throws.
    func validate(_ input: Input, in context: ActionContext) throws
    func perform(_ input: Input, in context: ActionContext) throws -> Output
}

extension Action {
    public static var isReadOnly: Bool { false }
    public func validate(_ input: Input, in context: ActionContext) throws {}
}

/// A write action with slow work that needs no writer: a password checked against its bcrypt
/// hash (a quarter of a second of CPU). The kernel runs `prepare` in a read transaction, after
/// the same door as the action itself, then opens the write transaction, where `validate` and
/// `perform` find the answer in `context.prepared(as:)`. SQLite has one writer for the whole
/// database, so work done while holding it stalls every school's writes; reads run side by side.
/// The answer is the action's own, never the caller's, and `perform` must check that what it
/// was based on is unchanged (the hash may have changed in between).
public protocol PreparedAction: Action {
    associatedtype Preparation: Sendable
    func prepare(_ input: Input, in context: ActionContext) throws -> Preparation
}

extension PreparedAction {
    /// `prepare` for a caller that knows the action only as `any PreparedAction`.
    func prepareAny(_ input: Any, in context: ActionContext) throws -> (any Sendable)? {
        guard let input = input as? Input else { return nil }
        return try prepare(input, in: context)
    }
}

/// What an action or event handler sees while it runs: who, where, how far their grant
/// reaches, the school's data, its settings, and a way to publish events.
public final class ActionContext {
    public let principal: Principal
    public let school: School
    /// How far the principal's grant for the running action reaches (self, children, classes, school).
    public let scope: AccessScope
    public let database: SchoolDatabase
    public let localizer: Localizer
    /// One clock reading per action, so every row it writes carries the same time.
    public let now: Date
    let settings: SettingsReader
    /// Every module's grants, so an action can ask how far the principal reaches for another
    /// permission than its own (a timetable looked up by student follows the roster's scope).
    let policy: AccessPolicy
    /// Modules in force for this school, so a module can use another it does not depend on
    /// (attendance uses timetable periods) only where that module is on.
    public let enabledModules: Set<ModuleID>
    var publishedEvents: [PendingEvent] = []
    /// What this run shows people as it happens (`/api/v1/live`), stored with its commit.
    var liveEvents: [PendingLiveEvent] = []
    /// A note for the audit record of this run, e.g. why a sign-in was refused.
    public var auditDetail: String?
    /// How the audit record reports this run; an action that records a refusal as data (a
    /// failed sign-in) commits and sets `.failed`.
    public var auditOutcome: AuditOutcome = .succeeded
    /// Where long work (an import of thousands of rows) reports how far it got: the CLI passes a
    /// stderr line when it is a terminal; nil elsewhere. Part of the run, not of the input, which is data.
    public internal(set) var progress: ProgressReporter?
    /// Demo data draws ids from a seeded generator so the same seed gives the same school.
    var demoIDs: DemoRandom?
    /// Set on a context made by `acting(as:)`: events and ids go to the context that owns the transaction.
    private var owner: ActionContext?
    private var remembered: [String: Any] = [:]
    /// What `PreparedAction.prepare` answered before the write transaction opened.
    var preparation: (any Sendable)?

    init(principal: Principal, school: School, scope: AccessScope, database: SchoolDatabase, localizer: Localizer, now: Date,
         settings: SettingsReader, policy: AccessPolicy, enabledModules: Set<ModuleID>) {
        self.principal = principal
        self.school = school
        self.scope = scope
        self.database = database
        self.localizer = localizer
        self.now = now
        self.settings = settings
        self.policy = policy
        self.enabledModules = enabledModules
    }

    /// The school's time zone: dates and times of day are the school's, not the server's.
    /// Looked up once per run, as `today` is worked out once (the run has one clock reading).
    public private(set) lazy var timeZone: TimeZone = TimeZone(identifier: school.timeZone) ?? .gmt

    /// Today in the school's time zone.
    public private(set) lazy var today: CivilDate = CivilDate(now, in: timeZone)

    /// A value computed once per run, so validation and the body can share work (a class list
    /// read once instead of twice). Keys are the module's own, e.g. `attendance.session`.
    public func remember<T>(_ key: String, _ make: () throws -> T) throws -> T {
        // Unwrap the stored `Any` first: for an optional `T`, a missing entry would otherwise
        // cast to `T.none` and be returned without ever computing it.
        if let stored = remembered[key], let value = stored as? T { return value }
        let value = try make()
        remembered[key] = value
        return value
    }

    /// What this action's `prepare` answered, or nil when it was not prepared (run some other way).
    public func prepared<T: Sendable>(as type: T.Type) -> T? {
        preparation as? T
    }

    /// Publishes an event; it is stored with this transaction and delivered after it commits.
    public func publish<E: DomainEvent>(_ event: E) throws {
        if let owner {
            try owner.publish(event)
        } else {
            publishedEvents.append(try PendingEvent(event))
        }
    }

    /// Shows each of `users` (in this school) an event on their live stream once this transaction
    /// commits: `kind` names it (`notification`), `data` is its JSON in each language.
    public func publishLive<Payload: Encodable>(to users: [String], kind: String, data: (Language) throws -> Payload) throws {
        guard let owner else {
            let encoder = APIJSON.encoder(.snakeCase)
            encoder.outputFormatting = [.sortedKeys]
            let arabic = String(decoding: try encoder.encode(data(.ar)), as: UTF8.self)
            let english = String(decoding: try encoder.encode(data(.en)), as: UTF8.self)
            liveEvents += users.map { PendingLiveEvent(user: $0, kind: kind, arabic: arabic, english: english) }
            return
        }
        try owner.publishLive(to: users, kind: kind, data: data)
    }

    /// The same transaction acting as someone else, for the kernel's own work only (demo data,
    /// event handlers): an action run by a person cannot borrow another identity.
    public func acting(as other: Principal) throws -> ActionContext {
        guard principal == .localOperator || principal == .system(in: school.id) else {
            throw KernelError.permissionDenied(permission: "kernel.act-as", role: principal.role)
        }
        let context = ActionContext(principal: other, school: school, scope: .school, database: database, localizer: localizer, now: now,
                                    settings: settings, policy: policy, enabledModules: enabledModules)
        context.owner = self
        return context
    }

    /// A file-path setting's value as a full path: relative values resolve against the database's folder.
    public func filePath(_ setting: Setting<String>) throws -> String {
        SettingsReader.resolve(try self.setting(setting), in: settings.databaseFolder).path
    }

    /// How far the principal's grant of another permission reaches, nil when the role lacks it.
    /// An action that shows data another module guards (a student's name and class) applies
    /// that module's scope, so a person never sees through one door what another refuses.
    public func scope(for permission: Permission) -> AccessScope? {
        policy.scope(of: principal.role, for: permission)
    }

    /// The school's value of one of this platform's settings (its default until someone sets it).
    public func setting<Value>(_ setting: Setting<Value>) throws -> Value {
        try settings.value(of: setting, in: school.id)
    }

    /// A new identifier for a row: random, or from the demo's seed while seeding. Random because
    /// people name some rows by their id's first 8 characters (`messages edit 3f2a91c0`, a check-in
    /// window's code), which must differ between rows made in the same minute.
    public func newID() -> String {
        if let owner { return owner.newID() }
        if demoIDs != nil { return demoIDs?.id() ?? "" }
        return Self.lowercaseID(UUID())
    }

    /// A new time-ordered identifier (`TimeOrderedID`), or from the demo's seed while seeding: for
    /// rows written many to a transaction (an import's students, a day's records), which then land
    /// at the end of each index instead of on random pages. Not for rows named by a short prefix:
    /// the first 8 characters of a time-ordered id change once a minute.
    public func newOrderedID() -> String {
        if let owner { return owner.newOrderedID() }
        if demoIDs != nil { return demoIDs?.id() ?? "" }
        return TimeOrderedID.next()
    }

    /// A UUID as lowercase text (`uuidString.lowercased()`, by `UUIDText`).
    package static func lowercaseID(_ uuid: UUID) -> String {
        withUnsafeBytes(of: uuid.uuid) { UUIDText.lowercase($0) }
    }
}
