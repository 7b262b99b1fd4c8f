import Attendance
import Auth
import Core
import Foundation
import HogwartsTestSupport
import Students
import Testing

/// Excuses in the web console: a guardian explains an absence with a note, staff decide it in a
/// queue, each through the excuse actions (so their scopes, checks and audit apply).
@Suite("Attendance excuses in the web console")
struct AttendanceConsoleExcusesTests {
    static let guardianPath = "/m/attendance/excuses"
    static let queuePath = "/m/attendance/excuse-queue"

    /// The parent's first child absent today in periods 1 and 2, and the two records' ids.
    static func absences(_ fixture: AttendanceFixture) throws -> (Principal, Student, [String]) {
        let (parent, child) = try ExcuseTests.absentChild(fixture)
        try fixture.run(TakeAttendance.self, .init(classCode: child.classCode ?? "", period: "P2", marks: [AttendanceMark(student: child.grNumber, status: .absent)]))
        let records = try fixture.run(AttendanceRecords.self, .init(student: child.id), as: parent).records
        let ids = records.filter { $0.status == .absent && $0.date == CivilDate("2026-11-22") }.sorted { $0.period < $1.period }.map(\.id)
        try #require(ids.count == 2)
        return (parent, child, ids)
    }

    /// A teacher who does not teach the child (their classes' lists do not hold them).
    static func otherTeacher(_ fixture: AttendanceFixture, not child: Student) throws -> String {
        for number in ["", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "29", "30"] {
            let email = "teacher\(number)@databayt.org"
            guard let teacher = try? fixture.account(email) else { continue }
            if try !fixture.run(ListStudents.self, .init(pageSize: 100), as: teacher).students.contains(where: { $0.id == child.id }) { return email }
        }
        throw AttendanceError.notAGuardian
    }

    @Test("a guardian picks an absence, a bad note is shown beside its field and nothing is sent, then the excuse is stored and listed as pending")
    func guardianSubmits() async throws {
        let fixture = try AttendanceFixture()
        let (parent, child, records) = try Self.absences(fixture)
        let note = "Fever since last night"
        try await fixture.harness.console { console in
            let dashboard = try await console.signIn("parent@databayt.org", AuthDemo.password, school: fixture.school.id)
            #expect(dashboard.html.contains("href=\"\(Self.guardianPath)\""))
            #expect(!dashboard.html.contains("href=\"\(Self.queuePath)\""))
            let page = try await console.get(Self.guardianPath)
            #expect(page.status == 200 && page.html.contains("<html lang=\"ar\" dir=\"rtl\">"))
            #expect(page.html.contains("data-submit-once") && page.html.contains("name=\"_csrf\""))
            #expect(records.allSatisfy { page.html.contains("value=\"\($0)\"") })
            #expect(!page.html.contains("hogwarts attendance") && !page.html.contains("attendance.excuse") && !page.html.contains("--gr"),
                    "no command words, flags or keys on the page")
            // Another family's child, or none at all, falls back to one's own: never an error page.
            let stranger = try await console.get("\(Self.guardianPath)?child=NOT-A-CHILD")
            #expect(stranger.status == 200 && stranger.html.contains("value=\"\(records[0])\""))

            let long = try await console.post(Self.guardianPath, [("child", child.grNumber), ("record", records[0]), ("reason", "MEDICAL"),
                                                                    ("note", String(repeating: "x", count: 2001))])
            #expect(long.status == 200 && long.html.contains("role=\"alert\""))
            #expect(long.html.contains("id=\"note-problem\"") && long.html.contains("aria-invalid=\"true\""))
            let noReason = try await console.post(Self.guardianPath, [("child", child.grNumber), ("record", records[0]), ("reason", ""), ("note", note)])
            #expect(noReason.html.contains("id=\"reason-problem\"") && noReason.html.contains(note))
            #expect(try fixture.run(ListExcuses.self, .init(studentID: child.id)).excuses.isEmpty)

            let sent = try await console.post(Self.guardianPath, [("child", child.grNumber), ("record", records[0]), ("reason", "MEDICAL"), ("note", note)])
            #expect(sent.html.contains("id=\"sent\""))
            #expect(sent.html.contains("بانتظار المراجعة") && sent.html.contains(note))
            // The excused record leaves the form; the other absence stays to explain.
            #expect(!sent.html.contains("value=\"\(records[0])\"") && sent.html.contains("value=\"\(records[1])\""))
            // The same record again (a second tab): refused beside the absence, in English after switching.
            _ = try await console.post("/language", [("lang", "en"), ("back", Self.guardianPath)])
            let twice = try await console.post(Self.guardianPath, [("child", child.grNumber), ("record", records[0]), ("reason", "OTHER"), ("note", "again")])
            #expect(twice.html.contains("<html lang=\"en\" dir=\"ltr\">") && twice.html.contains("id=\"record-problem\""))
            #expect(twice.html.contains("Waiting for review"))
        }
        let stored = try fixture.run(ListExcuses.self, .init(studentID: child.id)).excuses
        #expect(stored.count == 1)
        #expect(stored.first?.description == note && stored.first?.status == .pending && stored.first?.reason == .medical)
        #expect(stored.first?.submittedBy == parent.userID && stored.first?.recordID == records[0])
        let audit = try fixture.harness.kernel.auditLog(for: fixture.school.id, limit: 500)
        let submitted = audit.filter { (entry: AuditEntry) -> Bool in entry.action == SubmitExcuse.id && entry.outcome == AuditOutcome.succeeded }
        #expect(submitted.map(\.userID) == [parent.userID])
    }

    @Test("staff approve one excuse and reject another with a reason; the result is said in words and the queue empties")
    func reviewQueue() async throws {
        let fixture = try AttendanceFixture()
        let (parent, child, records) = try Self.absences(fixture)
        let first = try fixture.run(SubmitExcuse.self, .init(recordID: records[0], reason: .medical, description: "Fever"), as: parent)
        let second = try fixture.run(SubmitExcuse.self, .init(recordID: records[1], reason: .other, description: "Overslept"), as: parent)
        try await fixture.harness.console { console in
            let dashboard = try await console.signIn("admin@databayt.org", AuthDemo.password, school: fixture.school.id)
            #expect(dashboard.html.contains("href=\"\(Self.queuePath)\""))
            #expect(!dashboard.html.contains("href=\"\(Self.guardianPath)\""), "the guardian's page is for guardians")
            let queue = try await console.get(Self.queuePath)
            #expect(queue.html.contains(child.fullName) && queue.html.contains("Fever") && queue.html.contains("Overslept"))
            #expect(queue.html.contains("value=\"\(first)\"") && queue.html.contains("value=\"\(second)\""))
            #expect(queue.html.components(separatedBy: "data-submit-once").count - 1 == 2)

            let undecided = try await console.post(Self.queuePath, [("excuse", first), ("note", "")])
            #expect(undecided.html.contains("role=\"alert\"") && undecided.html.contains("value=\"\(first)\""))

            let approved = try await console.post(Self.queuePath, [("excuse", first), ("decision", "approve"), ("note", "Get well")])
            #expect(approved.html.contains("id=\"decided\"") && approved.html.contains("قُبل عذر \(child.fullName)"))
            #expect(!approved.html.contains("value=\"\(first)\"") && approved.html.contains("value=\"\(second)\""))
            let rejected = try await console.post(Self.queuePath, [("excuse", second), ("decision", "reject"), ("note", "Not a reason")])
            #expect(rejected.html.contains("رُفض عذر \(child.fullName)") && rejected.html.contains("id=\"queue-empty\""))

            let again = try await console.post(Self.queuePath, [("excuse", first), ("decision", "reject"), ("note", "")])
            #expect(again.html.contains("role=\"alert\"") && again.html.contains("id=\"review-problem\""))
        }
        let decided = try fixture.run(ListExcuses.self, .init(studentID: child.id)).excuses
        let approvedExcuse = try #require(decided.first { $0.id == first })
        let rejectedExcuse = try #require(decided.first { $0.id == second })
        #expect(approvedExcuse.status == .approved && approvedExcuse.recordStatus == .excused && approvedExcuse.reviewNote == "Get well")
        #expect(rejectedExcuse.status == .rejected && rejectedExcuse.recordStatus == .absent && rejectedExcuse.reviewNote == "Not a reason")
        let audit = try fixture.harness.kernel.auditLog(for: fixture.school.id, limit: 500)
        let reviews = audit.filter { (entry: AuditEntry) -> Bool in entry.action == ReviewExcuse.id && entry.outcome == AuditOutcome.succeeded }
        #expect(reviews.count == 2)

        // The guardian sees the decisions on their page.
        try await fixture.harness.console { console in
            _ = try await console.signIn("parent@databayt.org", AuthDemo.password, school: fixture.school.id)
            let page = try await console.get(Self.guardianPath)
            #expect(page.html.contains("excuse-approved") && page.html.contains("excuse-rejected") && page.html.contains("Get well"))
        }
    }

    @Test("a guardian cannot review; a teacher of another class sees an empty queue and their decision answers as an unknown excuse")
    func refusals() async throws {
        let fixture = try AttendanceFixture()
        let (parent, child, records) = try Self.absences(fixture)
        let excuse = try fixture.run(SubmitExcuse.self, .init(recordID: records[0], reason: .medical, description: "Fever"), as: parent)
        let teacher = try Self.otherTeacher(fixture, not: child)
        try await fixture.harness.console { console in
            _ = try await console.signIn("parent@databayt.org", AuthDemo.password, school: fixture.school.id)
            #expect(try await console.get(Self.queuePath).status == 403)
            _ = try await console.get(Self.guardianPath)
            #expect(try await console.post(Self.queuePath, [("excuse", excuse), ("decision", "approve"), ("note", "")]).status == 403)
        }
        try await fixture.harness.console { console in
            let dashboard = try await console.signIn(teacher, AuthDemo.password, school: fixture.school.id)
            #expect(dashboard.html.contains("href=\"\(Self.queuePath)\"") && !dashboard.html.contains("href=\"\(Self.guardianPath)\""))
            let queue = try await console.get(Self.queuePath)
            #expect(queue.html.contains("id=\"queue-empty\"") && !queue.html.contains(child.fullName) && !queue.html.contains("Fever"))
            let forged = try await console.post(Self.queuePath, [("excuse", excuse), ("decision", "approve"), ("note", "")])
            let unknown = try await console.post(Self.queuePath, [("excuse", "no-such-excuse"), ("decision", "approve"), ("note", "")])
            let said = { (page: ConsoleTestPage, id: String) in page.html.replacingOccurrences(of: id, with: "ID").contains("لا يوجد عذر أو إشعار واحد بالمعرّف") }
            #expect(said(forged, excuse) && said(unknown, "no-such-excuse"))
            #expect(try await console.get(Self.guardianPath).status == 403)
        }
        try await fixture.harness.console { console in
            let dashboard = try await console.signIn("staff@databayt.org", AuthDemo.password, school: fixture.school.id)
            #expect(!dashboard.html.contains("href=\"\(Self.queuePath)\"") && !dashboard.html.contains("href=\"\(Self.guardianPath)\""))
        }
        let stored = try #require(try fixture.run(ListExcuses.self, .init(studentID: child.id)).excuses.first)
        #expect(stored.status == .pending && stored.recordStatus == .absent)
    }

    @Test("a guardian of two picks the child; in their other school they see only that school's child, and a record from here answers as unknown")
    func childrenAndSchools() async throws {
        let fixture = try AttendanceFixture()
        let (parent, child, records) = try Self.absences(fixture)
        let children = try fixture.run(ListStudents.self, .init(pageSize: 20), as: parent).students
        let other = try #require(children.first { $0.id != child.id })
        _ = try fixture.run(SubmitExcuse.self, .init(recordID: records[1], reason: .medical, description: "Fever"), as: parent)
        let nile = try fixture.harness.kernel.school("nile")
        try await fixture.harness.console { console in
            _ = try await console.signIn("parent@databayt.org", AuthDemo.password, school: fixture.school.id)
            let page = try await console.get(Self.guardianPath)
            #expect(page.html.contains("child=\(other.grNumber)") && page.html.contains("aria-current=\"page\"><bdi>\(child.fullName)"))
            let second = try await console.get("\(Self.guardianPath)?child=\(other.grNumber)")
            #expect(second.status == 200 && second.html.contains(other.fullName))
            #expect(!second.html.contains("value=\"\(records[0])\"") && !second.html.contains("Fever"))
        }
        try await fixture.harness.console { console in
            _ = try await console.signIn("parent@databayt.org", AuthDemo.password, school: nile.id)
            let page = try await console.get(Self.guardianPath)
            #expect(page.status == 200 && !page.html.contains(child.fullName) && !page.html.contains("Fever") && !page.html.contains(records[0]))
            let forged = try await console.post(Self.guardianPath, [("record", records[0]), ("reason", "MEDICAL"), ("note", "From the other school")])
            #expect(forged.html.contains("id=\"record-problem\"") && forged.html.contains("لا يوجد سجلّ حضور"))
        }
        #expect(try fixture.run(ListExcuses.self, .init(studentID: child.id)).excuses.map(\.recordID) == [records[1]])
    }
}
