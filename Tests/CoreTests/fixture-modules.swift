import ArgumentParser
import Core
import Foundation

// Small modules that exercise the kernel the way real ones will.

/// A module that only has a place in the graph.
struct GraphModule: AppModule {
    let id: ModuleID
    let version: SemanticVersion
    let dependencies: [ModuleDependency]

    init(_ id: ModuleID, _ version: String = "1.0.0", _ dependencies: [ModuleDependency] = []) {
        self.id = id
        self.version = SemanticVersion(parsing: version) ?? SemanticVersion(0, 0, 0)
        self.dependencies = dependencies
    }

    var strings: StringCatalog { StringCatalog(ar: [:], en: [:]) }
}

/// Notes: a table, a write action with validation, a read action honouring scope, an event and a setting.
struct NotesModule: AppModule, HTTPModule, IdentityModule {
    static let maxLength = Setting<Int>.integer("notes", "max-length", default: 40, in: 1...500)

    let id: ModuleID = "notes"
    let version = SemanticVersion(1, 2, 0)
    var migrations: [Migration] = [
        Migration("001-notes", sql: """
            CREATE TABLE notes_notes (
                school_id TEXT NOT NULL,
                id TEXT NOT NULL,
                title TEXT NOT NULL,
                author TEXT NOT NULL,
                PRIMARY KEY (school_id, id)
            );
            """),
    ]
    var permissions: [PermissionDefinition] {
        [
            PermissionDefinition("notes.write", summary: LocalizedText(ar: "كتابة", en: "Write"), grants: [.developer: .school, .admin: .school, .teacher: .ownClasses]),
            PermissionDefinition("notes.read", summary: LocalizedText(ar: "قراءة", en: "Read"), grants: [.developer: .school, .admin: .school, .teacher: .school, .student: .ownRecord]),
        ]
    }
    var actions: [any Action.Type] { [AddNote.self, ListNotes.self] }
    var routes: [APIRoute] { NotesRoutes.all }
    var identityProvider: any IdentityProvider { NotesIdentity() }
    var publishedEvents: [any DomainEvent.Type] { [NoteAdded.self] }
    var settings: [SettingDefinition] { [Self.maxLength.definition] }
    var strings: StringCatalog {
        StringCatalog(
            ar: ["notes.module.name": "الملاحظات", "notes.module.description": "ملاحظات قصيرة", "notes.error.too-long": "الملاحظة أطول من {max}"],
            en: ["notes.module.name": "Notes", "notes.module.description": "Short notes", "notes.error.too-long": "The note is longer than {max}"])
    }

    func seedDemo(_ context: ActionContext, size: DemoSize) throws {
        try context.database.insert(into: "notes_notes", ["id": "seed", "title": "Welcome", "author": "operator"])
    }
}

struct NoteAdded: DomainEvent {
    static let name = "notes.note-added"
    let noteID: String
    let title: String
}

struct AddNote: Action {
    struct Input: Codable, Sendable { var title: String; var failAfterWriting = false }
    struct Output: Codable, Sendable, Equatable { let id: String; let scope: AccessScope }

    static let id = "notes.add"
    static let permission: Permission = "notes.write"

    func validate(_ input: Input, in context: ActionContext) throws {
        let max = try context.setting(NotesModule.maxLength)
        guard !input.title.isEmpty, input.title.count <= max else { throw InputError("notes.error.too-long", ["max": String(max)]) }
    }

    func perform(_ input: Input, in context: ActionContext) throws -> Output {
        let id = context.newID()
        try context.database.insert(into: "notes_notes", ["id": .text(id), "title": .text(input.title), "author": .text(context.principal.userID)])
        try context.publish(NoteAdded(noteID: id, title: input.title))
        if input.failAfterWriting { throw InputError("notes.error.too-long", ["max": "0"]) }
        return Output(id: id, scope: context.scope)
    }
}

struct ListNotes: Action {
    struct Input: Codable, Sendable {}
    static let id = "notes.list"
    static let permission: Permission = "notes.read"
    static let isReadOnly = true

    /// Students see only notes they wrote: the kernel passes the scope, the action applies it.
    func perform(_ input: Input, in context: ActionContext) throws -> [String] {
        if context.scope == .ownRecord {
            return try context.database.fetchAll(
                "SELECT title FROM notes_notes WHERE school_id = :school_id AND author = :author ORDER BY title",
                ["author": .text(context.principal.userID)]).map { $0.string("title") }
        }
        return try context.database.fetchAll("SELECT title FROM notes_notes WHERE school_id = :school_id ORDER BY title").map { $0.string("title") }
    }
}

/// Digest: depends on Notes and copies every new note's title through an event handler.
struct DigestModule: AppModule {
    let id: ModuleID = "digest"
    let version = SemanticVersion(0, 3, 0)
    var dependencies: [ModuleDependency] { [ModuleDependency("notes", "^1.0.0")] }
    var migrations: [Migration] {
        [Migration("001-entries", sql: "CREATE TABLE digest_entries (school_id TEXT NOT NULL, title TEXT NOT NULL);")]
    }
    var permissions: [PermissionDefinition] {
        [PermissionDefinition("digest.read", summary: LocalizedText(ar: "قراءة", en: "Read"), grants: [.admin: .school])]
    }
    var actions: [any Action.Type] { [ListDigest.self] }
    var eventHandlers: [EventHandler] {
        [
            EventHandler("digest.copy-note", on: NoteAdded.self) { event, context in
                if event.title == "explode" && FailureSwitch.shared.isOn { throw InputError("digest.error.boom") }
                try context.database.insert(into: "digest_entries", ["title": .text(event.title)])
            },
        ]
    }
    var strings: StringCatalog {
        StringCatalog(ar: ["digest.module.name": "الملخص", "digest.error.boom": "فشل"], en: ["digest.module.name": "Digest", "digest.error.boom": "boom"])
    }
}

struct ListDigest: Action {
    struct Input: Codable, Sendable {}
    static let id = "digest.list"
    static let permission: Permission = "digest.read"
    static let isReadOnly = true

    func perform(_ input: Input, in context: ActionContext) throws -> [String] {
        try context.database.fetchAll("SELECT title FROM digest_entries WHERE school_id = :school_id ORDER BY title").map { $0.string("title") }
    }
}

/// Lets a test make the digest handler fail, then recover.
final class FailureSwitch: @unchecked Sendable {
    static let shared = FailureSwitch()
    private let lock = NSLock()
    private var on = false
    var isOn: Bool {
        get { lock.withLock { on } }
        set { lock.withLock { on = newValue } }
    }
}

/// A clock tests can move forward, to get past retry backoff.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current = Date(timeIntervalSince1970: 1_790_000_000)
    var now: Date { lock.withLock { current } }
    func advance(_ seconds: TimeInterval) { lock.withLock { current = current.addingTimeInterval(seconds) } }
}

/// The notes module over HTTP: a list and a write, as a real module's routes file does it.
enum NotesRoutes {
    struct NewNote: Decodable { let title: String }

    static var all: [APIRoute] {
        [
            APIRoute(.get, "/api/notes", summary: "Notes the caller may read", response: .list(of: .text)) { request in
                try .json(["data": try await request.run(ListNotes.self, .init())])
            },
            APIRoute(.post, "/api/notes", summary: "Adds a note", body: .object([("title", .text)]), status: 201,
                     response: .object([("id", .id)])) { request in
                let note = try request.decode(NewNote.self)
                let output = try await request.run(AddNote.self, .init(title: note.title))
                return try .json(["id": output.id], status: 201)
            },
        ]
    }
}

/// Vouches for every user except those whose id starts with `gone`, as Auth does for active accounts.
struct NotesIdentity: IdentityProvider {
    func currentPrincipal(kernel: Kernel, variables: [String: String]) throws -> Principal? { nil }

    func currentUser(kernel: Kernel, school: SchoolID, userID: String) throws -> IdentifiedUser? {
        guard !userID.hasPrefix("gone") else { return nil }
        return IdentifiedUser(principal: Principal(userID: userID, role: .teacher, schoolID: school, displayName: "Note Taker"), email: nil)
    }
}
