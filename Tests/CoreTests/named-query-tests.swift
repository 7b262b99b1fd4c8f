import Core
import Foundation
import HogwartsTestSupport
import Testing

/// The provider's side: Notes answers how many notes there are, as the notes' readers see them.
private enum NoteCount: NamedQuery {
    static let name = "notes.count"
    struct Request: Codable, Sendable { var prefix: String }
    struct Answer: Codable, Sendable, Equatable { var count: Int; var asked: String }
}

/// The asker's own copy of the shape, as a module that does not import Notes declares it.
private enum AskedNoteCount: NamedQuery {
    static let name = "notes.count"
    struct Request: Codable, Sendable { var prefix: String }
    struct Answer: Codable, Sendable, Equatable { var count: Int }
}

/// Notes with the query registered.
private struct AnsweringNotes: AppModule {
    let id: ModuleID = "notes"
    let version = SemanticVersion(1, 2, 0)
    var migrations: [Migration] { NotesModule().migrations }
    var permissions: [PermissionDefinition] { NotesModule().permissions }
    var actions: [any Action.Type] { [AddNote.self] }
    var strings: StringCatalog { NotesModule().strings }
    var queries: [NamedQueryProvider] {
        [NamedQueryProvider(NoteCount.self, permission: "notes.read") { request, context in
            let count: Int = try context.database.fetchValue(
                "SELECT COUNT(*) FROM notes_notes WHERE school_id = :school_id AND title LIKE :prefix", ["prefix": .text(request.prefix + "%")]) ?? 0
            return NoteCount.Answer(count: count, asked: context.principal.displayName)
        }]
    }
}

/// A module that does not depend on Notes and asks it.
private struct Asking: Action {
    struct Input: Codable, Sendable {}
    static let id = "asker.ask"
    static let permission: Permission = "asker.use"
    func perform(_ input: Input, in context: ActionContext) throws -> Int? {
        try context.ask(AskedNoteCount.self, .init(prefix: "Hom"))?.count
    }
}

private struct AskerModule: AppModule {
    let id: ModuleID = "asker"
    let version = SemanticVersion(1, 0, 0)
    var actions: [any Action.Type] { [Asking.self] }
    var permissions: [PermissionDefinition] {
        [PermissionDefinition("asker.use", summary: LocalizedText(ar: "سؤال", en: "Ask"), grants: [.admin: .school, .teacher: .school, .guardian: .school])]
    }
    var strings: StringCatalog { StringCatalog(ar: [:], en: [:]) }
}

@Suite("Named queries between modules")
struct NamedQueryTests {
    @Test("the asker gets the provider's answer, in its own transaction, decoded into its own shape")
    func answered() throws {
        let harness = try TestHarness(modules: [AnsweringNotes(), AskerModule()])
        try harness.run(AddNote.self, .init(title: "Homework"), as: .admin)
        try harness.run(AddNote.self, .init(title: "Holiday"), as: .admin)
        #expect(try harness.run(Asking.self, .init(), as: .admin) == 1)
    }

    @Test("nothing comes back where the provider is off for the school, or not installed")
    func providerOff() throws {
        let harness = try TestHarness(modules: [AnsweringNotes(), AskerModule()])
        try harness.run(AddNote.self, .init(title: "Homework"), as: .admin)
        _ = try harness.kernel.disable("notes", for: harness.school.id, by: .localOperator)
        #expect(try harness.run(Asking.self, .init(), as: .admin) == nil)

        let alone = try TestHarness(modules: [AskerModule()])
        #expect(try alone.run(Asking.self, .init(), as: .admin) == nil)
    }

    @Test("the asker must hold the query's permission, as for an action")
    func permission() throws {
        let harness = try TestHarness(modules: [AnsweringNotes(), AskerModule()])
        #expect(throws: KernelError.permissionDenied(permission: "notes.read", role: .guardian)) {
            try harness.run(Asking.self, .init(), as: .guardian)
        }
    }

    @Test("the provider's answer has the shape the asker decodes")
    func shape() throws {
        let answer = try JSONEncoder().encode(NoteCount.Answer(count: 3, asked: "x"))
        #expect(try JSONDecoder().decode(AskedNoteCount.Answer.self, from: answer) == AskedNoteCount.Answer(count: 3))
    }

    @Test("a query named outside its module, or twice, stops the start")
    func misnamed() {
        struct Stray: AppModule {
            let id: ModuleID = "asker"
            let version = SemanticVersion(1, 0, 0)
            var strings: StringCatalog { StringCatalog(ar: [:], en: [:]) }
            var queries: [NamedQueryProvider] { [NamedQueryProvider(NoteCount.self, permission: "notes.read") { _, _ in .init(count: 0, asked: "") }] }
        }
        #expect(throws: KernelError.duplicateDeclaration(kind: "query", name: "notes.count")) { try ModuleRegistry([Stray()]) }
    }
}
