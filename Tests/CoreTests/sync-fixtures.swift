import Core
import Foundation
import HogwartsTestSupport
import Synchronization

/// A small module synced the way real ones are: memos that belong to a class and an author,
/// teachers who teach classes, two mutations and a fault switch for crash tests.
struct MemoModule: AppModule, SyncModule {
    let id: ModuleID = "memo"
    let version = SemanticVersion(1, 0, 0)
    var migrations: [Migration] {
        [Migration("001-memos", sql: """
            CREATE TABLE memo_items (school_id TEXT NOT NULL, id TEXT NOT NULL, body TEXT NOT NULL, author TEXT NOT NULL,
                class_id TEXT NOT NULL, touched INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (school_id, id));
            CREATE TABLE memo_teaching (school_id TEXT NOT NULL, teacher TEXT NOT NULL, class_id TEXT NOT NULL,
                PRIMARY KEY (school_id, teacher, class_id));
            """)]
    }
    var permissions: [PermissionDefinition] {
        [PermissionDefinition("memo.write", summary: LocalizedText(ar: "كتابة", en: "Write"),
                              grants: [.developer: .school, .admin: .school, .teacher: .school])]
    }
    var actions: [any Action.Type] { [AddMemo.self, RemoveMemo.self, TouchMemo.self, Teach.self, ListMemoCount.self] }
    var strings: StringCatalog {
        StringCatalog(ar: ["memo.error.forbidden-word": "كلمة ممنوعة", "memo.error.exists": "المذكرة {id} موجودة بنص آخر"],
                      en: ["memo.error.forbidden-word": "That word is not allowed", "memo.error.exists": "Memo {id} exists with another text"])
    }
    var syncEntities: [SyncEntityType] { [MemoSync.item] }
    var syncScopes: SyncScopeRule? { MemoSync.scopes }
    var syncMutations: [SyncMutation] {
        [SyncMutation("memo.add@1", AddMemo.self, current: { input, error, context in
            guard (error as? InputError)?.messageKey == "memo.error.exists" else { return nil }
            return try MemoSync.item.load([input.id], context)[input.id].map { .object($0.data) }
        }),
         SyncMutation("memo.remove@1", RemoveMemo.self)]
    }
}

/// Crashes injected into `memo.add` after it wrote: a storage failure, as a killed process or a
/// full disk would give, so nothing of the run may survive.
let memoCrashes = Mutex<Set<String>>([])

struct AddMemo: Action {
    struct Input: Codable, Sendable { var id: String; var body: String; var classId: String }
    struct Output: Codable, Sendable, Equatable { let id: String }
    static let id = "memo.add"
    static let permission: Permission = "memo.write"

    func validate(_ input: Input, in context: ActionContext) throws {
        if input.body.contains("forbidden") { throw InputError("memo.error.forbidden-word") }
        if let body: String = try context.database.fetchValue("SELECT body FROM memo_items WHERE school_id = :school_id AND id = :id", ["id": .text(input.id)]),
           body != input.body {
            throw InputError("memo.error.exists", ["id": input.id])
        }
    }

    func perform(_ input: Input, in context: ActionContext) throws -> Output {
        try context.database.execute("""
            INSERT INTO memo_items (school_id, id, body, author, class_id) VALUES (:school_id, :id, :body, :author, :class)
            ON CONFLICT (school_id, id) DO UPDATE SET body = excluded.body, class_id = excluded.class_id
            """, ["id": .text(input.id), "body": .text(input.body), "author": .text(context.principal.userID), "class": .text(input.classId)])
        if memoCrashes.withLock({ $0.remove(input.id) != nil }) { throw KernelError.storage("disk I/O error") }
        return Output(id: input.id)
    }
}

struct RemoveMemo: Action {
    struct Input: Codable, Sendable { var id: String }
    struct Output: Codable, Sendable, Equatable { let removed: Bool }
    static let id = "memo.remove"
    static let permission: Permission = "memo.write"

    func perform(_ input: Input, in context: ActionContext) throws -> Output {
        try context.database.execute("DELETE FROM memo_items WHERE school_id = :school_id AND id = :id", ["id": .text(input.id)])
        return Output(removed: context.database.changedRowCount > 0)
    }
}

/// Writes a column clients never see: must record nothing.
struct TouchMemo: Action {
    struct Input: Codable, Sendable { var id: String }
    struct Output: Codable, Sendable, Equatable { let ok: Bool }
    static let id = "memo.touch"
    static let permission: Permission = "memo.write"

    func perform(_ input: Input, in context: ActionContext) throws -> Output {
        try context.database.execute("UPDATE memo_items SET touched = touched + 1 WHERE school_id = :school_id AND id = :id", ["id": .text(input.id)])
        return Output(ok: true)
    }
}

/// Gives or takes a class from a teacher (their scope changes).
struct Teach: Action {
    struct Input: Codable, Sendable { var teacher: String; var classId: String; var teaches: Bool }
    struct Output: Codable, Sendable, Equatable { let ok: Bool }
    static let id = "memo.teach"
    static let permission: Permission = "memo.write"

    func perform(_ input: Input, in context: ActionContext) throws -> Output {
        let arguments: SQLArguments = ["teacher": .text(input.teacher), "class": .text(input.classId)]
        if input.teaches {
            try context.database.execute("INSERT INTO memo_teaching (school_id, teacher, class_id) VALUES (:school_id, :teacher, :class) ON CONFLICT DO NOTHING", arguments)
        } else {
            try context.database.execute("DELETE FROM memo_teaching WHERE school_id = :school_id AND teacher = :teacher AND class_id = :class", arguments)
        }
        return Output(ok: true)
    }
}

enum MemoSync {
    static let item = SyncEntityType(
        "memo.item", sources: [SyncSource(table: "memo_items")],
        load: { ids, context in
            var result: [String: SyncEntity] = [:]
            for row in try context.database.fetchAll(
                "SELECT id, body, author, class_id FROM memo_items WHERE school_id = :school_id AND id IN (SELECT value FROM json_each(:ids))",
                ["ids": .text(SyncScope.json(ids))]) {
                result[row.string("id")] = SyncEntity(
                    data: ["id": .string(row.string("id")), "body": .string(row.string("body")), "classId": .string(row.string("class_id"))],
                    scopes: [.class(row.string("class_id")), .user(row.string("author"))])
            }
            return result
        },
        snapshot: { scope, after, limit, context in
            try context.database.fetchAll("""
                SELECT id FROM memo_items WHERE school_id = :school_id AND id > :after
                AND (class_id IN (SELECT value FROM json_each(:classes)) OR author IN (SELECT value FROM json_each(:users)))
                ORDER BY id LIMIT :limit
                """, ["after": .text(after), "limit": .integer(Int64(limit)), "classes": .text(scope.jsonIDs(of: "class")),
                      "users": .text(scope.jsonIDs(of: "user"))]).map { $0.string("id") }
        })

    static let scopes: SyncScopeRule = { principal, context in
        try context.database.fetchAll("SELECT class_id FROM memo_teaching WHERE school_id = :school_id AND teacher = :teacher",
                                      ["teacher": .text(principal.userID)]).map { .class($0.string("class_id")) }
    }
}

/// Builds pushes and reads pulls for the tests.
struct SyncDriver {
    let harness: TestHarness
    var school: School { harness.school }

    func memo(_ seq: Int, _ id: String, body: String = "hello", classId: String = "c1", uuid: String? = nil) -> SyncPushMutation {
        SyncPushMutation(seq: seq, id: uuid ?? "00000000-0000-4000-8000-\(String(format: "%012d", seq))", name: "memo.add@1",
                         args: ["id": .string(id), "body": .string(body), "classId": .string(classId)])
    }

    func push(_ client: String, _ mutations: [SyncPushMutation], as role: Role = .teacher, in school: School? = nil) throws -> SyncPushResponse {
        let school = school ?? harness.school
        return try harness.kernel.syncPush(SyncPushRequest(clientId: client, mutations: mutations), as: harness.user(role, in: school), in: school.id)
    }

    /// Pulls every page from `cursor`; the changes, the final cursor and the last page's mutation seq.
    func pullAll(_ client: String?, from cursor: String? = nil, limit: Int = 500, as principal: Principal,
                 in school: School? = nil) throws -> (changes: [SyncChange], cursor: String, lastMutationSeq: Int) {
        let school = school ?? harness.school
        var cursor = cursor
        var changes: [SyncChange] = []
        while true {
            guard case .changes(let page, let next, let hasMore, let last) = try harness.kernel.syncPull(
                clientID: client, cursor: cursor, limit: limit, as: principal, in: school.id) else {
                throw SyncTestFailure.unexpectedReset
            }
            changes += page
            cursor = next
            if !hasMore { return (changes, next, last) }
        }
    }

    func memoCount(_ id: String) throws -> Int {
        try harness.kernel.run(ListMemoCount.self, .init(id: id), as: .localOperator, in: school.id).count
    }
}

enum SyncTestFailure: Error { case unexpectedReset }

struct ListMemoCount: Action {
    struct Input: Codable, Sendable { var id: String }
    struct Output: Codable, Sendable { let count: Int }
    static let id = "memo.count"
    static let permission: Permission = "memo.write"
    static let isReadOnly = true

    func perform(_ input: Input, in context: ActionContext) throws -> Output {
        Output(count: try context.database.fetchValue("SELECT COUNT(*) FROM memo_items WHERE school_id = :school_id AND id = :id", ["id": .text(input.id)]) ?? 0)
    }
}
