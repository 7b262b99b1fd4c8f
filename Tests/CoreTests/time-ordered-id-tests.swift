import Foundation
import Testing
@testable import Core
import HogwartsTestSupport

/// New row ids are UUIDs of version 7: valid lowercase UUID text, unique, in the order they were made.
@Suite("Time-ordered ids")
struct TimeOrderedIDTests {
    @Test("a new id is lowercase UUID text of version 7 and RFC 9562's variant")
    func shape() throws {
        let id = TimeOrderedID.next()
        let uuid = try #require(UUID(uuidString: id))
        #expect(uuid.uuidString.lowercased() == id)
        let bytes = withUnsafeBytes(of: uuid.uuid) { Array($0) }
        #expect(bytes[6] >> 4 == 7)
        #expect(bytes[8] >> 6 == 0b10)
    }

    @Test("its first 48 bits are the time it was made, in milliseconds")
    func time() throws {
        let before = UInt64(Date().timeIntervalSince1970 * 1000)
        let millis = try #require(TimeOrderedID.millis(of: TimeOrderedID.next()))
        let after = UInt64(Date().timeIntervalSince1970 * 1000)
        #expect(millis >= before && millis <= after + 1)
    }

    @Test("ids made one after another are unique and sort in the order they were made, within a millisecond too")
    func order() {
        let ids = (0..<50_000).map { _ in TimeOrderedID.next() }
        #expect(Set(ids).count == ids.count)
        #expect(ids.sorted() == ids)
    }

    @Test("ids made on several threads at once are all different")
    func concurrent() async {
        let ids = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<4 { group.addTask { (0..<5_000).map { _ in TimeOrderedID.next() } } }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(Set(ids).count == 20_000)
    }

    @Test("rows an action adds with ordered ids sort in the order they were added; plain new ids stay random")
    func actionIDs() throws {
        let harness = try TestHarness(modules: [NotesModule(), OrderedNotesModule()])
        let ids = try (0..<20).map { _ in try harness.run(AddOrderedNote.self, .init(), as: .admin) }
        #expect(ids.allSatisfy { TimeOrderedID.millis(of: $0) != nil })
        #expect(ids.sorted() == ids)
        let random = try (0..<20).map { try harness.run(AddNote.self, .init(title: "n\($0)"), as: .admin).id }
        #expect(random.allSatisfy { UUID(uuidString: $0).map { withUnsafeBytes(of: $0.uuid) { $0[6] >> 4 } } == 4 })
        #expect(Set(random.map { $0.prefix(8) }).count == 20, "short ids made in the same minute still differ")
    }

    @Test("the counter carries into the next millisecond instead of wrapping, and the time never goes back")
    func carry() {
        let full = TimeOrderedID.State(millis: 5, counter: (1 << TimeOrderedID.counterBits) - 1)
        let carried = TimeOrderedID.step(after: full, now: 5, fresh: 9)
        #expect(carried == TimeOrderedID.State(millis: 6, counter: 9))
        #expect(TimeOrderedID.step(after: .init(millis: 5, counter: 3), now: 5, fresh: 9) == .init(millis: 5, counter: 4))
        #expect(TimeOrderedID.step(after: .init(millis: 5, counter: 3), now: 2, fresh: 9) == .init(millis: 5, counter: 4), "a clock set back")
        #expect(TimeOrderedID.step(after: .init(millis: 5, counter: 3), now: 7, fresh: 9) == .init(millis: 7, counter: 9))

        let last = TimeOrderedID.text(millis: full.millis, counter: full.counter, tail: 0xFFFF_FFFF_FFFF)
        let next = TimeOrderedID.text(millis: carried.millis, counter: 0, tail: 0)
        #expect(last < next)
        #expect(last == "00000000-0005-7fff-bfff-ffffffffffff")
        #expect(TimeOrderedID.millis(of: next) == 6)
    }
}

/// Adds a note whose id is time-ordered, through the kernel's whole action path.
struct AddOrderedNote: Action {
    struct Input: Codable, Sendable {}
    static let id = "ordered.add"
    static let permission: Permission = "ordered.add"

    func perform(_ input: Input, in context: ActionContext) throws -> String {
        let id = context.newOrderedID()
        try context.database.insert(into: "notes_notes", ["id": .text(id), "title": "ordered", "author": .text(context.principal.userID)])
        return id
    }
}

struct OrderedNotesModule: AppModule {
    let id: ModuleID = "ordered"
    let version = SemanticVersion(1, 0, 0)
    var dependencies: [ModuleDependency] { [ModuleDependency("notes", "*")] }
    var actions: [any Action.Type] { [AddOrderedNote.self] }
    var permissions: [PermissionDefinition] {
        [PermissionDefinition(AddOrderedNote.permission, summary: LocalizedText(ar: "إضافة", en: "Add"), grants: .administrators)]
    }
    var strings: StringCatalog { StringCatalog(ar: [:], en: [:]) }
}
