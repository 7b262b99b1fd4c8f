import Core
import HogwartsTestSupport
import Testing
import Auth
import Students
import Clubs

@Suite("Clubs module")
struct ClubsTests {
    /// A fresh database with exactly this module and its dependencies.
    func makeHarness() throws -> TestHarness {
        try TestHarness(modules: [AuthModule(), StudentsModule(), ClubsModule()])
    }

    @Test("every string exists in Arabic and English")
    func strings() {
        let catalog = ClubsModule().strings
        #expect(catalog.text("clubs.module.name", in: .en) != nil, "the catalog loaded from the module's resources")
        #expect(catalog.missingTranslations.isEmpty)
    }

    @Test("the tables the module declares are exactly those its migrations create")
    func declaredTables() {
        let mismatches = ModuleSchema.mismatches(of: ClubsModule())
        #expect(mismatches.undeclared.isEmpty, "add them to ownedTables (or publishedViews)")
        #expect(mismatches.notCreated.isEmpty)
    }

    @Test("a teacher adds an item and everyone with access sees it")
    func addAndList() throws {
        let harness = try makeHarness()
        try harness.run(AddClubsItem.self, .init(title: "  First  "), as: .teacher)
        #expect(try harness.run(ListClubsItems.self, .init(), as: .staff).map(\.title) == ["First"])
    }

    @Test("a student cannot add items, and nothing is written")
    func studentDenied() throws {
        let harness = try makeHarness()
        #expect(throws: KernelError.permissionDenied(permission: "clubs.write", role: .student)) {
            try harness.run(AddClubsItem.self, .init(title: "Nope"), as: .student)
        }
        #expect(try harness.run(ListClubsItems.self, .init(), as: .admin).isEmpty)
    }

    @Test("an empty title is refused before anything is written")
    func emptyTitle() throws {
        let harness = try makeHarness()
        #expect(throws: InputError("clubs.error.title-length", ["max": "200"])) {
            try harness.run(AddClubsItem.self, .init(title: "   "), as: .admin)
        }
        #expect(try harness.run(ListClubsItems.self, .init(), as: .admin).isEmpty)
    }

    @Test("items stay in their school")
    func tenancy() throws {
        let harness = try makeHarness()
        let other = try harness.makeSchool("other-school")
        try harness.run(AddClubsItem.self, .init(title: "Ours"), as: .admin)
        #expect(try harness.kernel.run(ListClubsItems.self, .init(), as: harness.user(.admin, in: other), in: other.id).isEmpty)
    }
}
