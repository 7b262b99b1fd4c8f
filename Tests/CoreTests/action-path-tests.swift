@testable import Core
import Foundation
import HogwartsTestSupport
import Testing

@Suite("The action path")
struct ActionPathTests {
    @Test("a write during validation is refused, and nothing is written")
    func validationCannotWrite() throws {
        let harness = try TestHarness(modules: [NotesModule(), QuietModule()])
        #expect(throws: KernelError.self) { try harness.run(Touch.self, .init(writeWhileValidating: true), as: .admin) }
        #expect(try harness.run(ListNotes.self, .init(), as: .admin).isEmpty)
        #expect(try harness.kernel.auditLog(for: harness.school.id).allSatisfy { $0.action != Touch.id }, "nothing ran")
        // Validation may read as often as it likes, run after run, and the body still writes.
        for _ in 0..<3 { try harness.run(Touch.self, .init(), as: .admin) }
        #expect(try harness.run(ListNotes.self, .init(), as: .admin) == ["touched", "touched", "touched"])
    }

    @Test("NaN deep in an input is refused naming its field, with or without a request id")
    func nestedNonFinite() throws {
        let harness = try TestHarness(modules: [NotesModule(), QuietModule()])
        let input = Touch.Input(readings: [Touch.Reading(values: [1.5, .nan])])
        #expect(throws: InputError("kernel.error.input-not-finite", ["field": "readings.0.values.1"])) {
            try harness.run(Touch.self, input, as: .admin)
        }
        #expect(throws: InputError("kernel.error.input-not-finite", ["field": "readings.0.values.1"])) {
            try harness.run(Touch.self, input, as: .admin, requestID: "r-1")
        }
        #expect(try harness.run(ListNotes.self, .init(), as: .admin).isEmpty)
        #expect(try harness.run(Touch.self, .init(readings: [Touch.Reading(values: [1.5, -2])]), as: .admin) == 2)
    }

    @Test("an id is lowercase UUID text")
    func ids() {
        let uuid = UUID()
        #expect(ActionContext.lowercaseID(uuid) == uuid.uuidString.lowercased())
    }
}

/// A write action that publishes nothing: it adds a note, and can try to write while validating.
struct Touch: Action {
    struct Reading: Codable, Sendable { var values: [Double] }
    struct Input: Codable, Sendable {
        var writeWhileValidating = false
        var readings: [Reading] = []
    }

    static let id = "quiet.touch"
    static let permission: Permission = "quiet.touch"

    func validate(_ input: Input, in context: ActionContext) throws {
        _ = try context.database.fetchAll("SELECT title FROM notes_notes WHERE school_id = :school_id")
        if input.writeWhileValidating {
            try context.database.insert(into: "notes_notes", ["id": "sneaky", "title": "sneaky", "author": "validate"])
        }
    }

    func perform(_ input: Input, in context: ActionContext) throws -> Int {
        try context.database.insert(into: "notes_notes", ["id": .text(context.newID()), "title": "touched", "author": .text(context.principal.userID)])
        return input.readings.reduce(0) { $0 + $1.values.count }
    }
}

struct QuietModule: AppModule {
    let id: ModuleID = "quiet"
    let version = SemanticVersion(1, 0, 0)
    var dependencies: [ModuleDependency] { [ModuleDependency("notes", "*")] }
    var actions: [any Action.Type] { [Touch.self] }
    var permissions: [PermissionDefinition] {
        [PermissionDefinition(Touch.permission, summary: LocalizedText(ar: "لمس", en: "Touch"), grants: .administrators)]
    }
    var strings: StringCatalog { StringCatalog(ar: [:], en: [:]) }
}
