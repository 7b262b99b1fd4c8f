import Foundation
import Core
import HogwartsTestSupport
import Testing

@Suite("Actions")
struct ActionTests {
    @Test("invalid input is refused before anything is written")
    func validationWritesNothing() throws {
        let harness = try TestHarness(modules: [NotesModule(), DigestModule()])
        #expect(throws: InputError("notes.error.too-long", ["max": "40"])) {
            try harness.run(AddNote.self, .init(title: String(repeating: "x", count: 41)), as: .admin)
        }
        #expect(try harness.run(ListNotes.self, .init(), as: .admin).isEmpty)
        #expect(try harness.kernel.auditLog(for: harness.school.id).allSatisfy { $0.action != "notes.add" })
    }

    @Test("a failure after writing rolls back the rows, the event and the audit record")
    func bodyIsOneTransaction() throws {
        let harness = try TestHarness(modules: [NotesModule(), DigestModule()])
        #expect(throws: InputError.self) {
            try harness.run(AddNote.self, .init(title: "half", failAfterWriting: true), as: .admin)
        }
        #expect(try harness.run(ListNotes.self, .init(), as: .admin).isEmpty)
        #expect(try harness.run(ListDigest.self, .init(), as: .admin).isEmpty)
    }

    @Test("a success is audited with who, where, what and when")
    func audited() throws {
        let harness = try TestHarness(modules: [NotesModule()])
        try harness.run(AddNote.self, .init(title: "Hello"), as: .teacher, requestID: "r-1")
        let entry = try #require(try harness.kernel.auditLog(for: harness.school.id).first)
        #expect(entry.action == "notes.add")
        #expect(entry.userID == harness.user(.teacher).userID)
        #expect(entry.role == .teacher)
        #expect(entry.schoolID == harness.school.id)
        #expect(entry.outcome == .succeeded)
        #expect(entry.requestID == "r-1")
    }

    @Test("the same request id twice applies once and returns the first result")
    func idempotent() throws {
        let harness = try TestHarness(modules: [NotesModule(), DigestModule()])
        let first = try harness.run(AddNote.self, .init(title: "Queued offline"), as: .teacher, requestID: "device-7/42")
        let replay = try harness.run(AddNote.self, .init(title: "Queued offline"), as: .teacher, requestID: "device-7/42")
        #expect(first == replay)
        #expect(try harness.run(ListNotes.self, .init(), as: .admin) == ["Queued offline"])
        #expect(try harness.run(ListDigest.self, .init(), as: .admin) == ["Queued offline"], "the event was not raised twice")
        #expect(try harness.kernel.auditLog(for: harness.school.id).first?.outcome == .replayed)
    }

    @Test("the same request id sent four times at once (an app's retry while the first is running) applies once; every copy answers its result")
    func idempotentInParallel() async throws {
        let harness = try TestHarness(modules: [NotesModule(), DigestModule()])
        for number in 1...5 {
            let results = try await withThrowingTaskGroup(of: AddNote.Output.self) { group in
                for _ in 0..<4 {
                    group.addTask { try harness.run(AddNote.self, .init(title: "Sent \(number)"), as: .teacher, requestID: "device-7/\(number)") }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.count == 4 && results.allSatisfy { $0 == results[0] }, "request \(number): one result for every copy")
        }
        #expect(try harness.run(ListNotes.self, .init(), as: .admin).sorted() == (1...5).map { "Sent \($0)" })
    }

    @Test("reusing a request id for different input is refused, not guessed")
    func requestIDReuse() throws {
        let harness = try TestHarness(modules: [NotesModule()])
        try harness.run(AddNote.self, .init(title: "One"), as: .teacher, requestID: "same")
        #expect(throws: KernelError.requestIDReused(requestID: "same", action: "notes.add")) {
            try harness.run(AddNote.self, .init(title: "Two"), as: .teacher, requestID: "same")
        }
        #expect(try harness.run(ListNotes.self, .init(), as: .admin) == ["One"])
    }

    @Test("validation and the body can share work: remember computes once per run")
    func rememberOncePerRun() throws {
        final class Counter: @unchecked Sendable {
            private let lock = NSLock()
            private var value = 0
            func next() -> Int { lock.withLock { value += 1; return value } }
        }
        struct Twice: Action {
            struct Input: Codable, Sendable {}
            static let id = "notes.twice"
            static let permission: Permission = "notes.write"
            static let counter = Counter()
            func validate(_ input: Input, in context: ActionContext) throws {
                _ = try context.remember("notes.count") { Self.counter.next() }
            }
            func perform(_ input: Input, in context: ActionContext) throws -> Int {
                try context.remember("notes.count") { Self.counter.next() }
            }
        }
        struct TwiceNotes: AppModule {
            let id: ModuleID = "notes"
            let version = SemanticVersion(1, 0, 0)
            var permissions: [PermissionDefinition] { NotesModule().permissions }
            var actions: [any Action.Type] { [Twice.self] }
            var strings: StringCatalog { NotesModule().strings }
        }
        let harness = try TestHarness(modules: [TwiceNotes()])
        #expect(try harness.run(Twice.self, .init(), as: .admin) == 1, "computed in validate, reused in perform")
        #expect(try harness.run(Twice.self, .init(), as: .admin) == 2, "a new run computes again")
    }

    @Test("remember computes an optional value too, instead of answering nil unasked")
    func rememberOptional() throws {
        struct Maybe: Action {
            struct Input: Codable, Sendable {}
            static let id = "notes.maybe"
            static let permission: Permission = "notes.write"
            func perform(_ input: Input, in context: ActionContext) throws -> Int? {
                let first: Int? = try context.remember("notes.maybe") { 42 }
                let second: Int? = try context.remember("notes.maybe") { 7 }
                return first.flatMap { value in second.map { value + $0 } }
            }
        }
        struct MaybeNotes: AppModule {
            let id: ModuleID = "notes"
            let version = SemanticVersion(1, 0, 0)
            var permissions: [PermissionDefinition] { NotesModule().permissions }
            var actions: [any Action.Type] { [Maybe.self] }
            var strings: StringCatalog { NotesModule().strings }
        }
        let harness = try TestHarness(modules: [MaybeNotes()])
        #expect(try harness.run(Maybe.self, .init(), as: .admin) == 84, "computed once, then the stored 42 both times")
    }

    @Test("an action no module declares cannot run")
    func undeclaredAction() throws {
        struct Stray: Action {
            struct Input: Codable, Sendable {}
            static let id = "notes.stray"
            static let permission: Permission = "notes.read"
            func perform(_ input: Input, in context: ActionContext) throws -> Int { 1 }
        }
        let harness = try TestHarness(modules: [NotesModule()])
        #expect(throws: KernelError.actionNotRegistered("notes.stray")) { try harness.run(Stray.self, .init(), as: .admin) }
    }
}
