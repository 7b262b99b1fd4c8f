import Core
import HogwartsTestSupport
import Testing
import Auth
import Students
import Clubs

@Suite("Clubs routes")
struct ClubsRouteTests {
    @Test("a teacher adds an item over HTTP and staff list it")
    func addAndList() async throws {
        let harness = try TestHarness(modules: [AuthModule(), StudentsModule(), ClubsModule()])
        try await harness.api { api in
            let added = try await api.post("/api/v1/clubs/items", as: harness.user(.teacher), json: ["title": "First"])
            #expect(added.status == 201)
            #expect(added.object["title"] as? String == "First")
            let listed = try await api.get("/api/v1/clubs/items", as: harness.user(.staff))
            #expect(listed.data.map { $0["title"] as? String } == ["First"])
        }
    }

    @Test("no token, a student, bad input and another school are refused")
    func refusals() async throws {
        let harness = try TestHarness(modules: [AuthModule(), StudentsModule(), ClubsModule()])
        let other = try harness.makeSchool("other-school")
        try harness.run(AddClubsItem.self, .init(title: "Ours"), as: .admin)
        try await harness.api { api in
            #expect(try await api.get("/api/v1/clubs/items").status == 401)
            #expect(try await api.post("/api/v1/clubs/items", as: harness.user(.student), json: ["title": "Nope"]).status == 403)
            let wrongType = try await api.post("/api/v1/clubs/items", as: harness.user(.admin), json: ["title": 7])
            #expect(wrongType.status == 400 && wrongType.code == "INVALID_FIELD")
            #expect(try await api.get("/api/v1/clubs/items", as: harness.user(.admin, in: other)).data.isEmpty)
        }
    }
}
