import Core
import Foundation

/// What an import did, or (with `dryRun`) what it found.
public struct OneRosterImportReport: Codable, Sendable {
    public let version: String
    public let dryRun: Bool
    /// Records created, updated and archived, by kind (`students`, `accounts`, `classes`, ...).
    public let created: [String: Int]
    public let updated: [String: Int]
    public let archived: [String: Int]
    /// Every violation (a dry run lists them; a real import refuses with them).
    public let violations: [OneRosterViolation]
    /// What was read leniently and how (a case difference, a date without a time, a vendor's
    /// column, a default for missing optional data); `strict` turns each into a violation.
    public var warnings: [OneRosterViolation] = []
    /// The new accounts invited by email (`invite`); the others have `codes`.
    public var invited: [String] = []
    /// Rows that were valid but that Hogwarts has no place for, and why.
    public let notImported: [OneRosterViolation]
    /// One set-password code per account created: the only way into those accounts.
    public let codes: [SetPasswordCode]
}

/// An account's one-time code, shown once to the administrator who imported it.
public struct SetPasswordCode: Codable, Sendable, Equatable {
    public let email: String
    public let code: String
    public let expiresOn: String
}

/// Imports a OneRoster 1.2 or 1.1 CSV set (its files by name, without `.csv`) into the school.
///
/// The whole set is checked first and every violation is listed (file, row, column, reason);
/// nothing is written unless it is all valid. Then every record goes through the Students and
/// Auth actions inside this one transaction, so their validation applies, and the module's id
/// map makes a second import update what the first created.
public struct ImportOneRoster: Action {
    public struct Input: Codable, Sendable {
        /// Each file as read, by name without `.csv`.
        public var files: [String: OneRosterReading]
        public var dryRun: Bool
        /// Today's exact reading: every lenient reading and default is a violation instead.
        public var strict: Bool
        /// The school to import when the set holds several: its `sourcedId` or `identifier`.
        public var org: String?
        /// New accounts get an invitation by email instead of a set-password code (those whose
        /// address cannot be mailed, or that the set disables, still get a code).
        public var invite: Bool
        public init(read files: [String: OneRosterReading], dryRun: Bool = false, strict: Bool = false, org: String? = nil, invite: Bool = false) {
            self.files = files
            self.dryRun = dryRun
            self.strict = strict
            self.org = org
            self.invite = invite
        }

        /// A set given as texts.
        public init(files: [String: String], dryRun: Bool = false, strict: Bool = false, org: String? = nil, invite: Bool = false) {
            self.init(read: files.mapValues(OneRosterReading.init(text:)), dryRun: dryRun, strict: strict, org: org, invite: invite)
        }
    }

    public static let id = "oneroster.import"
    public static let permission = OneRosterPermissions.importRoster

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        let checked = try checked(input, context)
        if !checked.violations.isEmpty && !input.dryRun { throw OneRosterError.invalidSet(checked.violations) }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> OneRosterImportReport {
        let checked = try checked(input, context)
        guard !input.dryRun else {
            var report = OneRosterImportReport(version: checked.plan.version.rawValue, dryRun: true, created: [:], updated: [:], archived: [:],
                                               violations: checked.violations, notImported: [], codes: [])
            report.warnings = checked.warnings
            return report
        }
        var writer = try OneRosterWriter(checked.plan, ids: checked.ids, context)
        writer.invite = input.invite
        try writer.apply()
        context.auditDetail = "OneRoster \(checked.plan.version.rawValue): " + writer.created.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        var report = OneRosterImportReport(version: checked.plan.version.rawValue, dryRun: false, created: writer.created, updated: writer.updated,
                                           archived: writer.archived, violations: [], notImported: writer.notes, codes: writer.codes)
        report.warnings = checked.warnings
        report.invited = writer.invited
        return report
    }

    private struct Checked {
        let plan: OneRosterPlan
        let ids: OneRosterIDs
        let violations: [OneRosterViolation]
        let warnings: [OneRosterViolation]
    }

    /// Read and checked once, shared by validation and the body.
    private func checked(_ input: Input, _ context: ActionContext) throws -> Checked {
        try context.remember("oneroster.import-check") {
            context.progress?(0, 3, context.localizer("oneroster.progress.read"))
            try OneRosterLimits.checkRows(input.files, context)
            var set = OneRosterSet(read: input.files, strict: input.strict, context)
            // Strict keeps today's rule: a second school is a violation of orgs.csv.
            if !input.strict || input.org != nil { try set.choose(input.org, context) }
            let ids = try OneRosterIDs(context)
            context.progress?(1, 3, context.localizer("oneroster.progress.check"))
            var checker = OneRosterChecker(set, ids: ids, strict: input.strict, org: input.org, context)
            let (plan, violations, warnings) = checker.check()
            return Checked(plan: plan, ids: ids, violations: violations, warnings: warnings)
        }
    }
}

/// Runs another module's action inside the running one's transaction. The kernel has no way for
/// an action to call another (it checks only the outer action's permission and writes one audit
/// line), so this checks that the principal holds the inner action's permission too, then runs
/// its validation and its body: the inner rules apply and its events join this transaction.
enum OneRosterCall {
    @discardableResult
    static func run<A: Action>(_ action: A.Type, _ input: A.Input, _ context: ActionContext) throws -> A.Output {
        try require(action, context)
        // The action's own module runs it: Students' and Auth's code use their own tables.
        return try context.published(by: A.moduleID) {
            let instance = A()
            try instance.validate(input, in: context)
            return try instance.perform(input, in: context)
        }
    }

    static func require<A: Action>(_ action: A.Type, _ context: ActionContext) throws {
        guard context.scope(for: A.permission) != nil else {
            throw KernelError.permissionDenied(permission: A.permission.id, role: context.principal.role)
        }
    }
}
