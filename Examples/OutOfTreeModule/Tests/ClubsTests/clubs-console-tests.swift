import Core
import HogwartsTestSupport
import Testing
import Auth
import Students
import Clubs

@Suite("Clubs in the web console")
struct ClubsConsoleTests {
    @Test("the page lists the school's items and its card counts them, in Arabic by default")
    func pageAndCard() async throws {
        let harness = try TestHarness(modules: [AuthModule(), StudentsModule(), ClubsModule()])
        try harness.run(AddClubsItem.self, .init(title: "First"), as: .admin)
        let module = ClubsModule()
        let page = try #require(module.consolePages.first)
        #expect(page.path == "items")
        #expect(module.consoleCards.count == 1)
        #expect(harness.kernel.registry.modules.contains { $0.id == "clubs" && !$0.contributedConsolePages.isEmpty })
    }
}
