import Core
import Foundation

/// Adds many users at once, all or none: each row follows `CreateUser`'s rules and gets its
/// messages, the emails are checked against the school in one read instead of one per row, and
/// the rows are written with a few multi-row statements. For imports (a roster of thousands).
///
/// A row without a password gets one no password matches (signing in to it costs what a wrong
/// password costs and never succeeds): the caller gives the person a way to set their own.
public struct CreateUsers: PreparedAction {
    public struct Row: Codable, Sendable {
        public var email: String
        public var displayName: String
        public var role: Role
        public var password: String?
        public init(email: String, displayName: String, role: Role, password: String? = nil) {
            self.email = email
            self.displayName = displayName
            self.role = role
            self.password = password
        }
    }

    public struct Input: Codable, Sendable {
        public var users: [Row]
        public init(users: [Row]) { self.users = users }
    }

    public static let id = "auth.create-users"
    public static let permission = AuthPermissions.manageUsers

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        // The school's emails, read once; a batch repeating an email is refused as taken at its second row.
        var taken: Set<String> = []
        try context.database.forEachRow("SELECT email FROM auth_users WHERE school_id = :school_id") { taken.insert($0.string("email")) }
        for (index, row) in input.users.enumerated() {
            try BatchRowError.at(index) {
                let email = try CreateUser.checkFields(email: row.email, displayName: row.displayName, password: row.password, context)
                guard taken.insert(email).inserted else { throw AuthError.emailTaken(email) }
            }
        }
    }

    public func prepare(_ input: Input, in context: ActionContext) throws -> PreparedPasswords {
        guard (try? validate(input, in: context)) != nil else { return .none }
        return try .make(input.users.compactMap(\.password), context)
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> [User] {
        let cost = try context.setting(AuthSettings.passwordHashCost)
        let unusable = input.users.contains { $0.password == nil } ? PasswordHasher.decoy(cost: cost) : ""
        var hashes = try PreparedPasswords.hashes(input.users.compactMap(\.password), context).makeIterator()
        var created: [User] = []
        created.reserveCapacity(input.users.count)
        var start = 0
        while start < input.users.count {
            let batch = input.users[start..<min(start + UserInsertSQL.batchSize, input.users.count)]
            var arguments: SQLArguments = ["now": SQLValue(context.now), "status": .text(UserStatus.active.rawValue)]
            for (offset, row) in batch.enumerated() {
                let user = User(id: context.newID(), email: UserAccounts.normalize(row.email), displayName: row.displayName.trimmingCharacters(in: .whitespaces),
                                role: row.role, status: .active, lockedUntil: nil)
                let keys = UserInsertSQL.keys[offset]
                arguments[keys[0]] = .text(user.id)
                arguments[keys[1]] = .text(user.email)
                arguments[keys[2]] = .text(user.displayName)
                arguments[keys[3]] = .text(user.role.rawValue)
                arguments[keys[4]] = .text(row.password == nil ? unusable : hashes.next() ?? unusable)
                created.append(user)
            }
            try context.database.execute(UserInsertSQL.text(batch.count), arguments)
            start += batch.count
        }
        context.auditDetail = "\(created.count) users"
        return created
    }
}

/// A refusal of one row of a batch: the row's own error (its message and exit status, as the
/// single-row action gives it) and where it stands in the batch, so a caller can name its line.
public struct BatchRowError: HogwartsError {
    /// The row's position in the batch, from 0.
    public let index: Int
    public let error: any HogwartsError

    public var messageKey: String { error.messageKey }
    public var messageArguments: [String: String] { error.messageArguments.merging(["row": String(index + 1)]) { first, _ in first } }
    public var exitStatus: ExitStatus { error.exitStatus }

    /// Runs one row's checks; a refusal comes back tagged with the row. The kernel's own
    /// refusals (a permission, the storage) stand for the whole batch and pass as they are.
    public static func at(_ index: Int, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as HogwartsError where !(error is KernelError) && !(error is BatchRowError) {
            throw BatchRowError(index: index, error: error)
        }
    }
}

/// The multi-row INSERT of accounts, its text built once per row count and its parameter names once.
enum UserInsertSQL {
    /// 5 parameters a row keeps a statement far below SQLite's parameter limit.
    static let batchSize = 100
    static let keys: [[String]] = (0..<batchSize).map { row in ["i", "e", "n", "r", "h"].map { "\($0)\(row)" } }
    private static let full = build(batchSize)

    static func text(_ rows: Int) -> String { rows == batchSize ? full : build(rows) }

    private static func build(_ rows: Int) -> String {
        "INSERT INTO auth_users (school_id, id, email, display_name, role, password_hash, status, created_at) VALUES "
            + keys.prefix(rows).map { "(:school_id, " + $0.map { ":\($0)" }.joined(separator: ", ") + ", :status, :now)" }.joined(separator: ", ")
    }
}
