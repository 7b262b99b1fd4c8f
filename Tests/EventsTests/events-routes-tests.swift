import Core
@testable import Events
import Foundation
import HogwartsTestSupport
import Testing

@Suite("Events routes")
struct EventsRouteTests {
    /// `GET /events` items with the contract's names, types and optionality.
    struct ContractItem: Decodable {
        let id: String
        let title: String
        let description: String
        let start_date: Date
        let start_time: String?
        let end_time: String?
        let location: String
        let type: String
        let is_public: Bool
        let organizer_name: String
        let status: String
    }

    struct ContractPage: Decodable {
        let data: [ContractItem]
        let total: Int
        let page: Int
        let per_page: Int
    }

    struct ContractDetail: Decodable {
        let id: String
        let registration_required: Bool
        let max_attendees: Int?
        let current_attendees: Int
        let registration_count: Int
        let target_audience: String
        let is_registered: Bool
        let registration_status: String?
        let created_at: Date?
    }

    static let english = ["Accept-Language": "en"]

    @Test("a guardian lists her calendar, opens the class trip, registers and leaves, as the contract has it")
    func guardianCalendar() async throws {
        let school = try EventsFixture()
        let trip = try school.run(CreateEvent.self, .init(title: "Museum trip", type: .trip, startsOn: "2026-11-20", startTime: "09:00", classCode: "7A",
                                                          registrationRequired: true, maxAttendees: 20), as: school.teacher)
        try await school.harness.api { api in
            let listed = try await api.get("/api/mobile/events?upcoming=true", as: school.guardian)
            let page = try ContractJSON.decoder().decode(ContractPage.self, from: listed.body)
            #expect(page.data.map(\.type) == ["trip", "holiday", "exam"] && page.total == 3)
            #expect(page.data.first?.is_public == false && page.data.first?.start_time == "09:00" && page.data.first?.organizer_name == "Amal Haddad")
            let registered = try await api.post("/api/mobile/events/\(trip.id)/register", as: school.guardian, headers: Self.english)
            #expect(registered.status == 200 && registered.object["status"] as? String == "REGISTERED")
            let detail = try ContractJSON.decoder().decode(ContractDetail.self, from: try await api.get("/api/mobile/events/\(trip.id)", as: school.guardian).body)
            #expect(detail.is_registered && detail.registration_status == "REGISTERED" && detail.current_attendees == 1 && detail.target_audience == "7A")
            #expect(try await api.delete("/api/mobile/events/\(trip.id)/register", as: school.guardian).status == 200)
        }
    }

    @Test("another class's event, another school's and a made-up id answer the same 404, naming nothing")
    func outOfScope() async throws {
        let school = try EventsFixture()
        let trip = try school.run(CreateEvent.self, .init(title: "Museum trip", startsOn: "2026-11-20", classCode: "7A"), as: school.teacher)
        try await school.harness.api { api in
            let otherClass = try await api.get("/api/mobile/events/\(trip.id)", as: school.otherStudent, headers: Self.english)
            let unknown = try await api.get("/api/mobile/events/no-such-event", as: school.otherStudent, headers: Self.english)
            #expect(otherClass.status == 404 && otherClass.code == "EVENTS_UNKNOWN" && !otherClass.text.contains("Museum"))
            #expect(otherClass.refusal(asked: [trip.id]) == unknown.refusal(asked: ["no-such-event"]))
            let foreign = try await api.post("/api/mobile/events/\(trip.id)/register", as: school.harness.user(.admin, in: school.otherSchool), headers: Self.english)
            #expect(foreign.refusal(asked: [trip.id]) == unknown.refusal(asked: ["no-such-event"]))
        }
    }

    @Test("the calendar feed: a subscribed phone reads iCalendar without signing in; a new address ends the old; any bad address is one 404")
    func feed() async throws {
        let school = try EventsFixture()
        try school.run(CreateEvent.self, .init(title: "Museum trip", startsOn: "2026-11-20", classCode: "7A"), as: school.teacher)
        try await school.harness.api { api in
            let made = try await api.post("/api/v1/events/feed", as: school.student)
            let path = try #require(made.object["path"] as? String)
            #expect(path.hasPrefix("/api/v1/events/feed/\(school.harness.school.id).") && path.hasSuffix(".ics"))
            let calendar = try await api.get(path)
            #expect(calendar.status == 200 && calendar.headers["content-type"]?.hasPrefix("text/calendar") == true)
            #expect(calendar.text.contains("SUMMARY:Museum trip (7A)") && calendar.text.contains("SUMMARY:Mid-term break"))

            let again = try #require(try await api.post("/api/v1/events/feed", as: school.student).object["path"] as? String)
            #expect(try await api.get(again).status == 200)
            let old = try await api.get(path, headers: Self.english)
            #expect(old.status == 404 && old.code == "EVENTS_UNKNOWN_FEED")
            let otherSchool = try await api.get(path.replacingOccurrences(of: school.harness.school.id, with: school.otherSchool.id), headers: Self.english)
            let garbage = try await api.get("/api/v1/events/feed/nothing.ics", headers: Self.english)
            #expect(otherSchool.refusal(asked: []) == old.refusal(asked: []) && garbage.refusal(asked: []) == old.refusal(asked: []))
            // The other student's feed never holds 7A's trip.
            let theirs = try #require(try await api.post("/api/v1/events/feed", as: school.otherStudent).object["path"] as? String)
            #expect(!(try await api.get(theirs).text.contains("Museum trip")))
        }
    }

    @Test("an administrator adds an event over HTTP; a teacher is held to her classes; bad input is 400 in API words")
    func create() async throws {
        let school = try EventsFixture()
        try await school.harness.api { api in
            let made = try await api.post("/api/v1/events", as: school.harness.user(.admin),
                                          json: ["title": "Sports day", "type": "sports", "start_date": "2026-11-25", "start_time": "08:00", "end_time": "12:00"])
            #expect(made.status == 201 && made.object["target_audience"] as? String == "school")
            let refused = try await api.post("/api/v1/events", as: school.teacher, json: ["title": "x", "start_date": "2026-11-25", "class_code": "7B"],
                                             headers: Self.english)
            #expect(refused.status == 403 && refused.code == "EVENTS_NOT_YOUR_CLASS" && !refused.text.contains("--"))
            let badDay = try await api.post("/api/v1/events", as: school.harness.user(.admin), json: ["title": "x", "start_date": "25/11/2026"], headers: Self.english)
            #expect(badDay.status == 400)
            #expect(try await api.post("/api/v1/events", as: school.student, json: ["title": "x", "start_date": "2026-11-25"]).status == 403)
        }
    }
}
