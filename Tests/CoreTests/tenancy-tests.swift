import Core
import HogwartsTestSupport
import Testing

@Suite("Tenancy")
struct TenancyTests {
    @Test("data written for one school is invisible to every read made for another")
    func isolation() throws {
        let harness = try TestHarness(modules: [NotesModule(), DigestModule()])
        let other = try harness.makeSchool("other-school")
        try harness.run(AddNote.self, .init(title: "Exam on Sunday"), as: .admin)

        let otherAdmin = harness.user(.admin, in: other)
        let otherStudent = harness.user(.student, in: other)
        #expect(try harness.kernel.run(ListNotes.self, .init(), as: otherAdmin, in: other.id).isEmpty)
        #expect(try harness.kernel.run(ListNotes.self, .init(), as: otherStudent, in: other.id).isEmpty)
        #expect(try harness.kernel.run(ListDigest.self, .init(), as: otherAdmin, in: other.id).isEmpty)
        #expect(try harness.run(ListNotes.self, .init(), as: .admin) == ["Exam on Sunday"])
        #expect(try harness.run(ListDigest.self, .init(), as: .admin) == ["Exam on Sunday"], "the event reached the school that raised it")
    }

    @Test("a user of one school cannot act in another, even with the right role")
    func crossSchoolPrincipal() throws {
        let harness = try TestHarness(modules: [NotesModule()])
        let other = try harness.makeSchool("other-school")
        #expect(throws: KernelError.outsideSchool(school: "other-school")) {
            try harness.kernel.run(AddNote.self, .init(title: "sneaky"), as: harness.user(.admin), in: other.id)
        }
        #expect(try harness.kernel.run(ListNotes.self, .init(), as: harness.user(.admin, in: other), in: other.id).isEmpty)
    }

    @Test("a statement that does not name :school_id is refused")
    func unscopedStatement() throws {
        struct Leak: Action {
            struct Input: Codable, Sendable {}
            static let id = "notes.leak"
            static let permission: Permission = "notes.read"
            static let isReadOnly = true
            func perform(_ input: Input, in context: ActionContext) throws -> Int {
                try context.database.fetchAll("SELECT * FROM notes_notes").count
            }
        }
        struct LeakyNotes: AppModule {
            let id: ModuleID = "notes"
            let version = SemanticVersion(1, 0, 0)
            var migrations: [Migration] { NotesModule().migrations }
            var permissions: [PermissionDefinition] { NotesModule().permissions }
            var actions: [any Action.Type] { [Leak.self] }
            var strings: StringCatalog { NotesModule().strings }
        }
        let harness = try TestHarness(modules: [LeakyNotes()])
        #expect(throws: KernelError.unscopedStatement("SELECT * FROM notes_notes")) {
            try harness.run(Leak.self, .init(), as: .admin)
        }
    }
}
