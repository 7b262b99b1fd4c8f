import Auth
import Core
import Fees
import Foundation
import HogwartsTestSupport
import Notifications
import Students
import Testing

/// Fee reminders: a guardian hears, in the app's list and their channels, of each child's fees
/// falling due soon and of fees gone overdue; once per invoice however often and on however many
/// servers the job runs, and not for a child whose reminders they turned off.
@Suite("Fees: reminders to guardians")
struct FeesReminderTests {
    static func fixture() throws -> FeesFixture {
        let fixture = try FeesFixture(with: [NotificationsModule()])
        // The demo's next installments fall due on 1 December, 9 days after the fixture's today.
        try fixture.harness.kernel.setSetting("fees.reminder-days-before", to: "10", for: fixture.school.slug, by: .localOperator)
        // The demo's parent paid term 1 for both children; their cheques bounce, so term 1 is overdue again.
        let parent = try fixture.account("parent@databayt.org")
        for child in try fixture.children(of: parent) {
            for entry in try fixture.run(StudentFeeAccount.self, .init(student: child.id)).entries where entry.kind == .payment {
                try fixture.run(RefundFeePayment.self, .init(receipt: entry.receipt, kind: .reversal, reference: "bounced cheque"))
            }
        }
        return fixture
    }

    /// A child's invoices with something left to pay, split into overdue and due within 10 days.
    static func owed(_ fixture: FeesFixture, _ student: Student) throws -> (overdue: Int, upcoming: Int) {
        let today = CivilDate(FeesFixture.moment, in: .gmt)
        let open = try fixture.run(StudentFeeAccount.self, .init(student: student.id)).invoices.filter { $0.outstandingMinor > 0 && $0.cancelledMinor == 0 }
        let overdue = open.filter { $0.dueOn < today.description }
        let upcoming = open.filter { $0.dueOn >= today.description && $0.dueOn <= today.adding(days: 10).description }
        return (overdue.reduce(0) { $0 + $1.outstandingMinor }, upcoming.reduce(0) { $0 + $1.outstandingMinor })
    }

    static func titles(_ fixture: FeesFixture, _ principal: Principal, _ language: Language = .en) throws -> [String] {
        try fixture.run(ListNotifications.self, .init(), as: principal).notifications.filter { $0.type == .feeReminder }
            .map { $0.title.text(in: language) }.sorted()
    }

    @Test("each child with fees overdue or falling due gets one reminder of each kind to their guardian, with the amount; a second run sends nothing")
    func remindsOnce() throws {
        let fixture = try Self.fixture()
        let parent = try fixture.account("parent@databayt.org")
        let children = try fixture.children(of: parent)
        #expect(!children.isEmpty)
        var expected: [String] = []
        for child in children {
            let owed = try Self.owed(fixture, child)
            let name = "\(child.givenName) \(child.surname)"
            if owed.overdue > 0 { expected.append("Fees overdue for \(name)") }
            if owed.upcoming > 0 { expected.append("Fees due soon for \(name)") }
        }
        #expect(expected.contains { $0.hasPrefix("Fees overdue") } && expected.contains { $0.hasPrefix("Fees due soon") },
                "the demo's family owes both kinds; otherwise this test proves nothing")
        #expect(try fixture.run(FeeRemindersDue.self, .init()))
        let sent = try fixture.run(SendFeeReminders.self, .init())
        #expect(sent.overdue > 0 && sent.upcoming > 0)
        #expect(try Self.titles(fixture, parent) == expected.sorted())
        #expect(try Self.titles(fixture, parent, .ar).allSatisfy { $0.hasPrefix("رسوم") })

        let child = try #require(children.first { try Self.owed(fixture, $0).overdue > 0 })
        let overdue = try Self.owed(fixture, child).overdue
        let body = try #require(try fixture.run(ListNotifications.self, .init(), as: parent).notifications
            .first { $0.type == .feeReminder && $0.title.en.hasSuffix(child.surname) && $0.title.en.hasPrefix("Fees overdue") }).body.en
        #expect(body.contains(FeesMoney.format(overdue, digits: 2)), "the reminder names what is owed: \(body)")

        #expect(try fixture.run(FeeRemindersDue.self, .init()) == false)
        let again = try fixture.run(SendFeeReminders.self, .init())
        #expect(again.upcoming == 0 && again.overdue == 0)
        #expect(try Self.titles(fixture, parent).count == expected.count)
    }

    @Test("a guardian who turns one child's reminders off hears only of the other; the choice shows on the statement; another family's child is unknown")
    func perChild() async throws {
        let fixture = try Self.fixture()
        let parent = try fixture.account("parent@databayt.org")
        let children = try fixture.children(of: parent).filter { try Self.owed(fixture, $0).overdue > 0 }
        try #require(children.count >= 2, "the demo's parent has two children owing fees")
        let quiet = children[0], heard = children[1]
        let off = try fixture.run(SetFeeReminders.self, .init(student: quiet.grNumber, enabled: false), as: parent)
        #expect(off.enabled == false && off.grNumber == quiet.grNumber)
        #expect(try fixture.run(ShowFeeReminders.self, .init(student: quiet.grNumber), as: parent) == false)
        #expect(try fixture.run(ShowFeeReminders.self, .init(student: heard.grNumber), as: parent))

        _ = try fixture.run(SendFeeReminders.self, .init())
        let titles = try Self.titles(fixture, parent)
        #expect(titles.contains { $0.hasSuffix(heard.surname) && $0.contains(heard.givenName) })
        #expect(!titles.contains { $0.contains(quiet.givenName) }, "turned off for \(quiet.givenName): \(titles)")

        // Another family's child, a child of another school and a made-up number read alike.
        let family = Set(try fixture.children(of: parent).map(\.id))
        let stranger = try #require(try fixture.run(ListStudents.self, .init()).students.first { !family.contains($0.id) })
        for reference in [stranger.grNumber, "GR-99999"] {
            #expect(throws: FeesError.unknownStudent(reference)) {
                try fixture.run(SetFeeReminders.self, .init(student: reference, enabled: false), as: parent)
            }
        }
        // The accountant chooses for no family.
        let accountant = try fixture.account("accountant@databayt.org")
        #expect(throws: FeesError.self) { try fixture.run(SetFeeReminders.self, .init(student: heard.grNumber, enabled: false), as: accountant) }

        try await fixture.harness.api { api in
            let answer = try await api.put("/api/v1/fees/reminders", as: parent, json: ["student_id": heard.id, "enabled": false])
            #expect(answer.status == 200)
            let foreign = try await api.put("/api/v1/fees/reminders", as: parent, json: ["student_id": stranger.id, "enabled": false])
            let unknown = try await api.put("/api/v1/fees/reminders", as: parent, json: ["student_id": UUID().uuidString.lowercased(), "enabled": false])
            #expect(foreign.status == 404 && unknown.status == 404)
            #expect(foreign.object["code"] as? String == unknown.object["code"] as? String)
        }
        #expect(try fixture.run(ShowFeeReminders.self, .init(student: heard.grNumber), as: parent) == false)

        // On the child's statement in the console: the box shows the choice, and saving it turns reminders back on.
        try await fixture.harness.console { console in
            _ = try await console.signIn("parent@databayt.org", AuthDemo.password, school: fixture.school.id)
            let statement = try await console.get("/m/fees/balances?student=\(heard.grNumber)")
            #expect(statement.html.contains("id=\"fees-remind\" name=\"reminders\" type=\"checkbox\" aria-describedby"), "unchecked: turned off above")
            let saved = try await console.post("/m/fees/balances", [("student", heard.grNumber), ("reminders", "on")])
            #expect(saved.html.contains("id=\"fees-remind\" name=\"reminders\" type=\"checkbox\" checked"))
        }
        #expect(try fixture.run(ShowFeeReminders.self, .init(student: heard.grNumber), as: parent))
    }

    @Test("four servers sending reminders at once remind each child once (PostgreSQL: several connections)")
    func concurrentRunsRemindOnce() async throws {
        let fixture = try Self.fixture()
        let parent = try fixture.account("parent@databayt.org")
        let kernel = fixture.harness.kernel, school = fixture.school.id
        let totals = try await withThrowingTaskGroup(of: SendFeeReminders.Output.self) { group in
            for _ in 0..<4 {
                group.addTask { try kernel.run(SendFeeReminders.self, .init(), as: .localOperator, in: school) }
            }
            return try await group.reduce(into: [0, 0]) { $0[0] += $1.upcoming; $0[1] += $1.overdue }
        }
        let alone = try Self.fixture()
        let once = try alone.run(SendFeeReminders.self, .init())
        #expect(totals == [once.upcoming, once.overdue])
        let titles = try Self.titles(fixture, parent)
        #expect(Set(titles).count == titles.count, "no reminder twice: \(titles)")
    }
}
