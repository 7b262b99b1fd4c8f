@testable import Announcements
import Core
import Foundation
import HogwartsTestSupport
import Testing

/// The contract's announcements routes (§10) as a phone reads them, and ours for posting.
@Suite("Announcements routes")
struct AnnouncementsRouteTests {
    /// `GET /announcements` items, with the contract's names, types and optionality.
    struct ContractItem: Decodable {
        let id: String
        let title: String
        let content: String
        let priority: String
        let published_at: Date
        let expires_at: Date?
        let author_name: String
        let author_avatar: String?
    }

    struct ContractPage: Decodable {
        let data: [ContractItem]
        let total: Int
        let page: Int
        let per_page: Int
    }

    /// `GET /announcements/:id` adds these.
    struct ContractDetail: Decodable {
        let id: String
        let title: String
        let scope: String
        let is_published: Bool
        let is_pinned: Bool
        let is_featured: Bool
        let target_class: String?
        let target_role: String?
        let read_count: Int
        let created_at: Date
        let published_at: Date
    }

    static func decoder() -> JSONDecoder { ContractJSON.decoder() }

    static let english = ["Accept-Language": "en"]

    @Test("a guardian lists her child's class notice and the school's, pinned first, and opens one: the read is counted")
    func listAndOpen() async throws {
        let school = try AnnouncementsFixture()
        try school.run(PostAnnouncement.self, .init(title: "Trip", content: "Tuesday.", audience: "class:7A"), as: school.teacher)
        try school.run(PostAnnouncement.self, .init(title: "Term two", content: "Sunday.", priority: .urgent, pinned: true), as: school.admin)
        try await school.harness.api { api in
            let listed = try await api.get("/api/mobile/announcements?per_page=1", as: school.guardian)
            #expect(listed.status == 200)
            let page = try Self.decoder().decode(ContractPage.self, from: listed.body)
            #expect(page.total == 2 && page.per_page == 1 && page.data.map(\.title) == ["Term two"] && page.data.first?.priority == "urgent")
            #expect(page.data.first?.author_avatar == nil && page.data.first?.expires_at == nil)
            let second = try Self.decoder().decode(ContractPage.self, from: try await api.get("/api/mobile/announcements?page=2&per_page=1", as: school.guardian).body)
            let trip = try #require(second.data.first)
            #expect(trip.title == "Trip" && trip.author_name == "Amal Haddad")

            let opened = try await api.get("/api/mobile/announcements/\(trip.id)", as: school.guardian)
            let detail = try Self.decoder().decode(ContractDetail.self, from: opened.body)
            #expect(detail.scope == "class" && detail.target_class == "7A" && detail.target_role == nil && detail.is_published && !detail.is_pinned)
            #expect(detail.read_count == 1)
        }
    }

    @Test("a notice for another class, another school's and a made-up id answer the same 404, naming no one")
    func outOfScope() async throws {
        let school = try AnnouncementsFixture()
        let trip = try school.run(PostAnnouncement.self, .init(title: "Museum trip", content: "Tuesday.", audience: "class:7A"), as: school.teacher)
        let elsewhere = try school.run(PostAnnouncement.self, .init(title: "Far away", content: "x"), as: school.harness.user(.admin, in: school.otherSchool))
        try await school.harness.api { api in
            let otherClass = try await api.get("/api/mobile/announcements/\(trip.id)", as: school.otherStudent, headers: Self.english)
            let otherSchool = try await api.get("/api/mobile/announcements/\(elsewhere.id)", as: school.student, headers: Self.english)
            let unknown = try await api.get("/api/mobile/announcements/01JXXXXXXXXXXXXXXXXXXXXXXX", as: school.student, headers: Self.english)
            #expect(otherClass.status == 404 && otherClass.code == "ANNOUNCEMENTS_UNKNOWN")
            #expect(otherClass.refusal(asked: [trip.id]) == unknown.refusal(asked: ["01JXXXXXXXXXXXXXXXXXXXXXXX"]))
            #expect(otherSchool.refusal(asked: [elsewhere.id]) == unknown.refusal(asked: ["01JXXXXXXXXXXXXXXXXXXXXXXX"]))
            #expect(!otherClass.text.contains("Museum") && !otherClass.text.contains("Amal"))
            let listed = try await api.get("/api/mobile/announcements", as: school.otherStudent)
            #expect(listed.data.isEmpty)
            #expect(try await api.delete("/api/v1/announcements/\(elsewhere.id)", as: school.harness.user(.admin)).status == 404)
        }
    }

    @Test("an administrator posts for later over HTTP and withdraws; a teacher is held to her classes; bad input is 400 in API words")
    func postAndWithdraw() async throws {
        let school = try AnnouncementsFixture()
        try await school.harness.api { api in
            let later = ISO8601DateFormatter().string(from: school.clock.now.addingTimeInterval(86_400))
            let posted = try await api.post("/api/v1/announcements", as: school.harness.user(.admin),
                                            json: ["title": "Sports day", "content": "Friday.", "audience": "year-level:G7", "publish_at": later])
            #expect(posted.status == 201 && posted.object["is_published"] as? Bool == false && posted.object["scope"] as? String == "year-level")
            #expect(try await api.get("/api/mobile/announcements", as: school.student).data.isEmpty, "not yet")

            let refused = try await api.post("/api/v1/announcements", as: school.teacher, json: ["title": "Hi", "content": "x", "audience": "class:7B"],
                                             headers: Self.english)
            #expect(refused.status == 403 && refused.code == "ANNOUNCEMENTS_NOT_YOUR_CLASS")
            let bad = try await api.post("/api/v1/announcements", as: school.harness.user(.admin), json: ["title": "x", "content": "x", "audience": "class:9Z"],
                                         headers: Self.english)
            #expect(bad.status == 400 && !bad.text.contains("--"))
            let wrongType = try await api.post("/api/v1/announcements", as: school.harness.user(.admin), json: ["title": 7, "content": "x"])
            #expect(wrongType.status == 400 && wrongType.code == "INVALID_FIELD")

            let id = try #require(posted.object["id"] as? String)
            #expect(try await api.delete("/api/v1/announcements/\(id)", as: school.student).status == 403)
            let withdrawn = try await api.delete("/api/v1/announcements/\(id)", as: school.harness.user(.admin))
            #expect(withdrawn.status == 200 && withdrawn.object["success"] as? Bool == true)
            #expect(try await api.get("/api/mobile/announcements").status == 401)
        }
    }
}
