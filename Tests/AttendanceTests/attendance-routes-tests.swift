@testable import Attendance
import Core
import Foundation
import HogwartsTestSupport
import Students
import Testing

/// The demo school on Sunday 22 November 2026, 08:00 in Khartoum, with the smaller `nile` school
/// beside it for "another school", and the people and classes the routes are tried with.
struct RoutesFixture {
    let base: AttendanceFixture
    let nile: School
    let teacher: Principal
    let student: Principal
    let parent: Principal
    /// Classes by code, with their ids; a class the teacher teaches (7A) and one they do not.
    let classes: [String: String]
    let notTaught: String
    /// A student of the `nile` school, and one of its classes.
    let nileStudent: String
    let nileClass: String

    init(at time: String = "2026-11-22T06:00:00Z", with more: [any AppModule] = []) throws {
        base = try AttendanceFixture(at: time, with: more)
        nile = try base.harness.kernel.school("nile")
        teacher = try base.account("teacher@databayt.org")
        student = try base.account("student@databayt.org")
        parent = try base.account("parent@databayt.org")
        let all = try base.run(ListClasses.self, .init())
        classes = Dictionary(uniqueKeysWithValues: all.map { ($0.code, $0.id) })
        let taught = Set(try base.run(ListStudents.self, .init(), as: teacher).students.compactMap(\.classCode))
        notTaught = try #require(all.map(\.code).first { !taught.contains($0) })
        let nileAdmin = base.harness.user(.admin, in: nile)
        let nileClassList = try base.harness.kernel.run(ListClasses.self, .init(), as: nileAdmin, in: nile.id)
        let first = try #require(nileClassList.first)
        nileClass = first.id
        let register = try base.harness.kernel.run(ClassRegister.self, .init(classCode: first.code), as: nileAdmin, in: nile.id)
        nileStudent = try #require(register.lines.first).studentID
    }

    var admin: Principal { base.admin }
    var harness: TestHarness { base.harness }

    func user(_ role: Role) -> Principal { harness.user(role, in: base.school) }

    /// The class list of `code` with today's whole-day records.
    func lines(_ code: String, date: String? = nil) throws -> [ClassRegister.Line] {
        try base.register(code, date: date, period: nil)
    }

    func classID(_ code: String) throws -> String { try #require(classes[code]) }

    /// The guardian's children, and a student who is not one of them.
    func family() throws -> (children: [Student], stranger: String) {
        let children = try base.run(ListStudents.self, .init(), as: parent).students
        let ids = Set(children.map(\.id))
        let stranger = try #require(try lines(notTaught).map(\.studentID).first { !ids.contains($0) })
        return (children, stranger)
    }
}

extension APITestResponse {
    /// `details[].field` of an error answer.
    var fields: [String] { (object["details"] as? [[String: Any]] ?? []).compactMap { $0["field"] as? String } }
}

@Suite("Attendance: HTTP routes (issue 12)")
struct AttendanceRoutesTests {
    static let recordKeys: Set<String> = ["id", "date", "status", "notes", "method", "check_in_time", "check_out_time", "period_name", "section", "grade"]
    static let excuseKeys: Set<String> = ["id", "attendance_id", "attendance_date", "attendance_status", "student_id", "student_name", "reason", "description",
                                          "attachments", "status", "submitted_by", "submitted_at", "reviewed_by", "reviewed_at", "review_notes"]
    static let en = ["Accept-Language": "en"]

    @Test("a student's records: paged newest first with the contract's keys, for staff in reach, the student and their guardian only")
    func studentRecords() async throws {
        let fixture = try RoutesFixture()
        let me = try #require(try fixture.base.run(ListStudents.self, .init(), as: fixture.student).students.first)
        let own = try #require(try fixture.lines(me.classCode ?? "").first { $0.studentID == me.id })
        let classmate = try #require(try fixture.lines(me.classCode ?? "").first { $0.studentID != me.id })
        let (children, stranger) = try fixture.family()
        let child = try #require(children.first)
        try await fixture.harness.api { api in
            let page = try await api.get("/api/mobile/attendance/student/\(own.studentID)?per_page=5", as: fixture.admin, headers: Self.en)
            #expect(page.status == 200)
            #expect(page.object["total"] as? Int == 60 && page.object["page"] as? Int == 1 && page.object["per_page"] as? Int == 5)
            #expect(page.data.count == 5 && page.data.allSatisfy { Set($0.keys) == Self.recordKeys })
            let first = try #require(page.data.first)
            #expect(first["date"] as? String == "2026-11-19T00:00:00.000Z", "newest first, as the web app writes a date")
            #expect(first["section"] as? String == "Grade 7-A" && first["period_name"] is NSNull && first["check_out_time"] is NSNull)
            #expect(first["notes"] is NSNull && ["MANUAL", "QR_CODE"].contains(first["method"] as? String))
            #expect((page.data.map { $0["date"] as? String ?? "" }) == (page.data.map { $0["date"] as? String ?? "" }).sorted(by: >))
            let second = try await api.get("/api/mobile/attendance/student/\(own.studentID)?per_page=5&page=2", as: fixture.admin)
            #expect(second.data.first?["id"] as? String != first["id"] as? String && second.data.count == 5)
            let day = try await api.get("/api/mobile/attendance/student/\(own.studentID)?from=2026-11-19&to=2026-11-19", as: fixture.admin)
            #expect(day.object["total"] as? Int == 1 && day.object["per_page"] as? Int == 50)

            #expect(try await api.get("/api/mobile/attendance/student/\(own.studentID)", as: fixture.student).status == 200, "the student themself")
            #expect(try await api.get("/api/mobile/attendance/student/\(own.studentID)", as: fixture.teacher).status == 200, "their teacher")
            #expect(try await api.get("/api/mobile/attendance/student/\(child.id)", as: fixture.parent).status == 200, "a linked guardian")
            #expect(try await api.get("/api/mobile/attendance/student/\(own.studentID)", as: fixture.user(.staff)).status == 200, "staff of the school")

            let foreign = try await api.get("/api/mobile/attendance/student/\(classmate.studentID)", as: fixture.student, headers: Self.en)
            #expect(foreign.status == 404 && foreign.code == "STUDENTS_UNKNOWN_STUDENT", "another student reads like nobody")
            let unknown = UUID().uuidString
            let nobody = try await api.get("/api/mobile/attendance/student/\(unknown)", as: fixture.student, headers: Self.en)
            #expect(foreign.refusal(asked: classmate.studentID) == nobody.refusal(asked: unknown))
            #expect(try await api.get("/api/mobile/attendance/student/\(stranger)", as: fixture.parent).status == 404, "another family's child")
            #expect(try await api.get("/api/mobile/attendance/student/\(stranger)", as: fixture.teacher).status == 404, "another teacher's class")
            #expect(try await api.get("/api/mobile/attendance/student/\(own.studentID)", as: fixture.user(.accountant)).status == 403)
            #expect(try await api.get("/api/mobile/attendance/student/\(own.studentID)").status == 401)
            let otherSchool = try await api.get("/api/mobile/attendance/student/\(fixture.nileStudent)", as: fixture.admin)
            #expect(otherSchool.status == 404 && otherSchool.data.isEmpty && !otherSchool.text.contains("total"), "another school's student is not there")
            let badDate = try await api.get("/api/mobile/attendance/student/\(own.studentID)?from=2026-13-01", as: fixture.admin)
            #expect(badDate.status == 400 && badDate.code == "INVALID_FIELD" && badDate.fields == ["from"])
            #expect(try await api.get("/api/mobile/attendance/student/\(own.studentID)?page=x", as: fixture.admin).fields == ["page"])
        }
    }

    @Test("a guardian's child's attendance: the same shape; another family's child and non-guardians are refused")
    func childRecords() async throws {
        let fixture = try RoutesFixture()
        let (children, stranger) = try fixture.family()
        let child = try #require(children.first)
        try await fixture.harness.api { api in
            let answer = try await api.get("/api/mobile/guardian/children/\(child.id)/attendance?per_page=3", as: fixture.parent)
            #expect(answer.status == 200 && answer.object["total"] as? Int == 60 && answer.data.count == 3)
            #expect(answer.data.allSatisfy { Set($0.keys) == Self.recordKeys })
            let other = try await api.get("/api/mobile/guardian/children/\(stranger)/attendance", as: fixture.parent)
            #expect(other.status == 404 && other.code == "STUDENTS_UNKNOWN_STUDENT", "another family's child reads like nobody")
            let admin = try await api.get("/api/mobile/guardian/children/\(child.id)/attendance", as: fixture.admin)
            #expect(admin.status == 403 && admin.code == "ATTENDANCE_NOT_A_GUARDIAN")
            #expect(try await api.get("/api/mobile/guardian/children/\(fixture.nileStudent)/attendance", as: fixture.parent).status == 404)
            #expect(try await api.get("/api/mobile/guardian/children/\(child.id)/attendance").status == 401)
        }
    }

    @Test("a class register: today in the school's time zone by default, the contract's keys, only for staff who may take it")
    func classRegister() async throws {
        let fixture = try RoutesFixture()
        let sevenA = try fixture.classID("7A")
        let notTaught = try fixture.classID(fixture.notTaught)
        try await fixture.harness.api { api in
            let today = try await api.get("/api/mobile/attendance/class/\(sevenA)", as: fixture.teacher)
            #expect(today.status == 200)
            #expect(today.object["date"] as? String == "2026-11-22T00:00:00.000Z" && today.object["section_id"] as? String == sevenA)
            #expect(today.object["total_students"] as? Int == 24 && today.object["marked"] as? Int == 0 && today.data.count == 24)
            let line = try #require(today.data.first)
            #expect(Set(line.keys) == ["student_id", "student_name", "photo_url", "status", "notes"])
            #expect(line["photo_url"] is NSNull && line["status"] is NSNull && line["notes"] is NSNull)

            let earlier = try await api.get("/api/mobile/attendance/class/\(sevenA)?date=2026-11-19", as: fixture.admin)
            #expect(earlier.object["marked"] as? Int == 24 && earlier.data.allSatisfy { $0["status"] is String })

            let other = try await api.get("/api/mobile/attendance/class/\(notTaught)", as: fixture.teacher, headers: Self.en)
            #expect(other.status == 404 && other.code == "STUDENTS_UNKNOWN_CLASS", "another teacher's class reads like no class")
            let noClass = UUID().uuidString
            let nowhere = try await api.get("/api/mobile/attendance/class/\(noClass)", as: fixture.teacher, headers: Self.en)
            #expect(other.refusal(asked: notTaught) == nowhere.refusal(asked: noClass))
            for role in [Role.staff, .student, .guardian] {
                #expect(try await api.get("/api/mobile/attendance/class/\(sevenA)", as: fixture.user(role)).status == 403, "\(role)")
            }
            #expect(try await api.get("/api/mobile/attendance/class/\(fixture.nileClass)", as: fixture.admin).code == "STUDENTS_UNKNOWN_CLASS")
            #expect(try await api.get("/api/mobile/attendance/class/nope", as: fixture.admin).status == 404)
            #expect(try await api.get("/api/mobile/attendance/class/\(sevenA)?date=2026-02-30", as: fixture.admin).fields == ["date"])
            #expect(try await api.get("/api/mobile/attendance/class/\(sevenA)").status == 401)
        }
    }

    @Test("the register's hand-written JSON is what the API's encoder writes for the type its schema is read from, hostile notes included")
    func registerJSON() async throws {
        let fixture = try RoutesFixture()
        let sevenA = try fixture.classID("7A")
        let note = "late \"again\" \\ </bus> 🚌 متأخر" // (control characters are refused in notes)
        _ = try fixture.base.run(TakeAttendance.self, .init(classCode: "7A", marks: [
            AttendanceMark(student: "1", status: .absent, notes: note), AttendanceMark(student: "2", status: .late),
        ]))
        let register = try fixture.base.run(ClassRegister.self, .init(classID: sevenA))
        try await fixture.harness.api { api in
            let answer = try await api.get("/api/mobile/attendance/class/\(sevenA)", as: fixture.teacher)
            // The type the route's schema is read from, as `APIResponse.json` would write it.
            let encoded = try APIJSON.encoder(.snakeCase).encode(AttendanceRoutes.RegisterAnswer(register))
            let expected = try JSONSerialization.jsonObject(with: encoded) as? NSDictionary
            #expect(try JSONSerialization.jsonObject(with: answer.body) as? NSDictionary == expected)
            #expect(answer.data.first?["notes"] as? String == note && answer.object["marked"] as? Int == register.lines.count)
        }
    }

    @Test("a summary counts like the history, with one rate; the same refusals")
    func summary() async throws {
        let fixture = try RoutesFixture()
        let someone = try #require(try fixture.lines("7A").last)
        let history = try fixture.base.run(AttendanceHistory.self, .init(grNumber: someone.grNumber))
        try await fixture.harness.api { api in
            let answer = try await api.get("/api/mobile/attendance/summary/\(someone.studentID)", as: fixture.teacher)
            #expect(answer.status == 200 && Set(answer.object.keys) == ["total", "present", "absent", "late", "excused", "percentage"])
            #expect(answer.object["total"] as? Int == history.totals.counted && answer.object["late"] as? Int == history.totals.late)
            #expect(answer.object["excused"] as? Int == history.totals.excused + history.totals.sick)
            let percentage = try #require(answer.object["percentage"] as? Double)
            #expect(abs(percentage - (history.rate ?? 0)) < 0.01 && percentage <= (history.rate ?? 0))
            #expect(try await api.get("/api/mobile/attendance/summary/\(someone.studentID)", as: fixture.student).status == 404)
            #expect(try await api.get("/api/mobile/attendance/summary/\(fixture.nileStudent)", as: fixture.admin).status == 404)
            #expect(try await api.get("/api/mobile/attendance/summary/\(someone.studentID)").status == 401)
        }
    }

    @Test("marking one student upserts the day's record and touches no one else; bad input is 400 naming the field")
    func mark() async throws {
        let fixture = try RoutesFixture()
        let sevenA = try fixture.lines("7A")
        let (pupil, other) = (sevenA[0], sevenA[1])
        let stranger = try #require(try fixture.lines(fixture.notTaught).first)
        try await fixture.harness.api { api in
            let marked = try await api.post("/api/mobile/attendance/mark", as: fixture.teacher,
                                            json: ["student_id": pupil.studentID, "status": "ABSENT", "notes": "Fever"])
            #expect(marked.status == 200 && Set(marked.object.keys) == ["id", "student_id", "date", "status"])
            #expect(marked.object["student_id"] as? String == pupil.studentID && marked.object["status"] as? String == "ABSENT")
            #expect(marked.object["date"] as? String == "2026-11-22T00:00:00.000Z")
            let again = try await api.post("/api/mobile/attendance/mark", as: fixture.teacher,
                                           json: ["student_id": pupil.studentID, "status": "LATE", "section_id": try fixture.classID("7A"), "method": "manual"])
            #expect(again.object["id"] as? String == marked.object["id"] as? String && again.object["status"] as? String == "LATE", "the same record")
            let register = try fixture.lines("7A")
            #expect(register[0].status == .late && register[1].status == nil && register.filter { $0.status != nil }.count == 1)

            let unknownStatus = try await api.post("/api/mobile/attendance/mark", as: fixture.teacher, json: ["student_id": other.studentID, "status": "NOPE"])
            #expect(unknownStatus.status == 400 && unknownStatus.code == "INVALID_FIELD" && unknownStatus.fields == ["status"])
            #expect(try await api.post("/api/mobile/attendance/mark", as: fixture.teacher, json: ["status": "PRESENT"]).fields == ["student_id"])
            #expect(try await api.post("/api/mobile/attendance/mark", as: fixture.teacher,
                                       json: ["student_id": other.studentID, "status": "PRESENT", "method": "FAX"]).fields == ["method"])
            #expect(try await api.post("/api/mobile/attendance/mark", as: fixture.teacher,
                                       json: ["student_id": other.studentID, "status": "PRESENT", "date": "22/11/2026"]).fields == ["date"])
            #expect(try await api.request(.post, "/api/mobile/attendance/mark", as: fixture.teacher, raw: "{not json").code == "MALFORMED_JSON")
            let future = try await api.post("/api/mobile/attendance/mark", as: fixture.teacher,
                                            json: ["student_id": other.studentID, "status": "PRESENT", "date": "2026-11-23"])
            #expect(future.status == 400 && future.code == "ATTENDANCE_FUTURE_DATE")
            let dated = try await api.post("/api/mobile/attendance/mark", as: fixture.admin,
                                           json: ["student_id": other.studentID, "status": "SICK", "date": "2026-11-20T00:00:00.000Z"])
            #expect(dated.object["date"] as? String == "2026-11-20T00:00:00.000Z", "an ISO time counts as its day, as the web app cut it")

            let unknown = try await api.post("/api/mobile/attendance/mark", as: fixture.admin, json: ["student_id": "no-such-student", "status": "PRESENT"])
            #expect(unknown.status == 404 && unknown.code == "ATTENDANCE_UNKNOWN_STUDENTS" && unknown.fields == ["student_id"])
            let nile = try await api.post("/api/mobile/attendance/mark", as: fixture.admin, json: ["student_id": fixture.nileStudent, "status": "PRESENT"])
            #expect(nile.status == 404, "another school's student")
            let outside = try await api.post("/api/mobile/attendance/mark", as: fixture.admin,
                                             json: ["student_id": stranger.studentID, "status": "PRESENT", "section_id": try fixture.classID("7A")])
            #expect(outside.status == 400 && outside.code == "ATTENDANCE_NOT_IN_CLASS" && !outside.text.contains(stranger.name), "no name")
            // A teacher naming a student of a class she does not teach learns nothing: not the
            // name, not that the student exists.
            let notTaught = try await api.post("/api/mobile/attendance/mark", as: fixture.teacher, json: ["student_id": stranger.studentID, "status": "PRESENT"])
            #expect(notTaught.status == 404 && notTaught.code == "ATTENDANCE_UNKNOWN_STUDENTS" && !notTaught.text.contains(stranger.name))
            let nobody = UUID().uuidString
            let unknownToTeacher = try await api.post("/api/mobile/attendance/mark", as: fixture.teacher, json: ["student_id": nobody, "status": "PRESENT"])
            #expect(notTaught.refusal(asked: stranger.studentID) == unknownToTeacher.refusal(asked: nobody))
            for role in [Role.staff, .student, .guardian] {
                #expect(try await api.post("/api/mobile/attendance/mark", as: fixture.user(role), json: ["student_id": other.studentID, "status": "PRESENT"]).status == 403)
            }
            #expect(try await api.post("/api/mobile/attendance/mark", json: ["student_id": other.studentID, "status": "PRESENT"]).status == 401)
        }
        #expect(try fixture.lines(fixture.notTaught).allSatisfy { $0.status == nil }, "nothing refused was written")
    }

    @Test("bulk and a teacher's class: one transaction for the named students only; a foreign id refuses all, naming it")
    func bulk() async throws {
        let fixture = try RoutesFixture()
        let sevenA = try fixture.lines("7A")
        let sevenAID = try fixture.classID("7A")
        let stranger = try #require(try fixture.lines(fixture.notTaught).first)
        try await fixture.harness.api { api in
            let records: [[String: Any]] = [
                ["student_id": sevenA[0].studentID, "status": "PRESENT"], ["student_id": sevenA[1].studentID, "status": "ABSENT", "notes": "No word"],
                ["student_id": sevenA[2].studentID, "status": "LATE"],
            ]
            let answer = try await api.post("/api/mobile/attendance/bulk", as: fixture.teacher, json: ["section_id": sevenAID, "records": records])
            #expect(answer.status == 200 && answer.object["count"] as? Int == 3)
            let written = answer.object["records"] as? [[String: Any]] ?? []
            #expect(written.map { $0["student_id"] as? String } == sevenA.prefix(3).map(\.studentID))
            #expect(written.map { $0["status"] as? String } == ["PRESENT", "ABSENT", "LATE"] && written.allSatisfy { $0["id"] is String })
            #expect(Set(answer.object.keys) == ["count", "records"] && written.allSatisfy { Set($0.keys) == ["id", "student_id", "status"] })
            // The hand-written bytes are the type the schema is read from: they read as it, and it writes them back alike.
            let typed = try APIJSON.decoder(.snakeCase).decode(AttendanceRoutes.BulkAnswer.self, from: answer.body)
            let rewritten = try JSONSerialization.jsonObject(with: try APIJSON.encoder(.snakeCase).encode(typed)) as? NSDictionary
            #expect(try JSONSerialization.jsonObject(with: answer.body) as? NSDictionary == rewritten)
            let register = try fixture.lines("7A")
            #expect(register.filter { $0.status != nil }.count == 3 && register[1].notes == "No word", "the rest of the class is left as it was")

            let mixed = records + [["student_id": "ghost-1", "status": "PRESENT"], ["student_id": fixture.nileStudent, "status": "PRESENT"]]
            let refused = try await api.post("/api/mobile/attendance/bulk", as: fixture.admin,
                                             json: ["records": mixed.map { $0.merging(["status": "SICK"]) { $1 } }])
            #expect(refused.status == 404 && refused.code == "ATTENDANCE_UNKNOWN_STUDENTS")
            #expect(refused.fields == ["records[3].student_id", "records[4].student_id"] && refused.text.contains("ghost-1"))
            #expect(try fixture.lines("7A").filter { $0.status == .sick }.isEmpty, "all or nothing")
            let otherClass = try await api.post("/api/mobile/attendance/bulk", as: fixture.teacher,
                                                json: ["records": [["student_id": sevenA[3].studentID, "status": "ABSENT"], ["student_id": stranger.studentID, "status": "ABSENT"]]])
            #expect(otherClass.status == 404 && otherClass.code == "ATTENDANCE_UNKNOWN_STUDENTS" && !otherClass.text.contains(stranger.name),
                    "a student of another class reads like an unknown id")
            #expect(try fixture.lines("7A")[3].status == nil)

            #expect(try await api.post("/api/mobile/attendance/bulk", as: fixture.teacher, json: ["records": [[String: Any]]()]).fields == ["records"])
            let tooMany = (0...500).map { ["student_id": "s\($0)", "status": "PRESENT"] }
            #expect(try await api.post("/api/mobile/attendance/bulk", as: fixture.admin, json: ["records": tooMany]).fields == ["records"])
            #expect(try await api.post("/api/mobile/attendance/bulk", as: fixture.teacher,
                                       json: ["records": [["student_id": sevenA[0].studentID, "status": "gone"]]]).fields == ["records[0].status"])
            #expect(try await api.post("/api/mobile/attendance/bulk", as: fixture.teacher, json: ["records": [["status": "LATE"]]]).fields == ["records[0].student_id"])
            #expect(try await api.post("/api/mobile/attendance/bulk", as: fixture.teacher,
                                       json: ["records": records, "section_id": 7]).fields == ["section_id"])
            #expect(try await api.post("/api/mobile/attendance/bulk", as: fixture.user(.student), json: ["records": records]).status == 403)
            #expect(try await api.post("/api/mobile/attendance/bulk", json: ["records": records]).status == 401)

            let teacherClass = try await api.post("/api/mobile/teacher/classes/\(sevenAID)/attendance", as: fixture.teacher,
                                                  json: ["records": [["student_id": sevenA[4].studentID, "status": "EXCUSED"]], "date": "2026-11-19"])
            #expect(teacherClass.status == 200 && teacherClass.object["count"] as? Int == 1)
            #expect(try fixture.lines("7A", date: "2026-11-19")[4].status == .excused)
            let notTheirs = try await api.post("/api/mobile/teacher/classes/\(try fixture.classID(fixture.notTaught))/attendance", as: fixture.teacher,
                                               json: ["records": [["student_id": stranger.studentID, "status": "PRESENT"]]])
            #expect(notTheirs.status == 404 && notTheirs.code == "STUDENTS_UNKNOWN_CLASS")
            let outside = try await api.post("/api/mobile/teacher/classes/\(sevenAID)/attendance", as: fixture.teacher,
                                             json: ["records": [["student_id": stranger.studentID, "status": "PRESENT"]]])
            #expect(outside.status == 400 && outside.code == "ATTENDANCE_NOT_IN_CLASS")
            #expect(try await api.post("/api/mobile/teacher/classes/\(fixture.nileClass)/attendance", as: fixture.admin,
                                       json: ["records": [["student_id": fixture.nileStudent, "status": "PRESENT"]]]).status == 404)
        }
    }

    @Test("a repeated Idempotency-Key applies a mark or a bulk write once and answers the first result")
    func idempotency() async throws {
        let fixture = try RoutesFixture()
        let sevenA = try fixture.lines("7A")
        try await fixture.harness.api { api in
            let body: [String: Any] = ["records": [["student_id": sevenA[0].studentID, "status": "ABSENT"]]]
            let key = ["Idempotency-Key": "bulk-0001"]
            let first = try await api.post("/api/mobile/attendance/bulk", as: fixture.teacher, json: body, headers: key)
            _ = try await api.post("/api/mobile/attendance/mark", as: fixture.teacher, json: ["student_id": sevenA[0].studentID, "status": "PRESENT"])
            let retry = try await api.post("/api/mobile/attendance/bulk", as: fixture.teacher, json: body, headers: key)
            #expect(retry.status == 200 && NSDictionary(dictionary: retry.object).isEqual(to: first.object), "the first answer")
            #expect(try fixture.lines("7A")[0].status == .present, "the retry wrote nothing")

            let markKey = ["Idempotency-Key": "mark-0001"]
            let mark: [String: Any] = ["student_id": sevenA[1].studentID, "status": "ABSENT"]
            let marked = try await api.post("/api/mobile/attendance/mark", as: fixture.teacher, json: mark, headers: markKey)
            let again = try await api.post("/api/mobile/attendance/mark", as: fixture.teacher, json: mark, headers: markKey)
            #expect(marked.status == 200 && NSDictionary(dictionary: again.object).isEqual(to: marked.object))
        }
        #expect(try fixture.base.events().filter { $0.kind == "absent" }.count == 2, "each absence raised once")
    }

    @Test("QR: a teacher opens a window, the student scans it; expired 410, full or repeated 409, forged 404, another class 403")
    func qr() async throws {
        let fixture = try RoutesFixture()
        let sevenA = try fixture.classID("7A")
        let own = try #require(try fixture.base.run(ListStudents.self, .init(), as: fixture.student).students.first)
        try await fixture.harness.api { api in
            let opened = try await api.post("/api/mobile/attendance/qr", as: fixture.teacher, json: ["class_id": sevenA, "duration_minutes": 10, "max_scans": 1])
            #expect(opened.status == 201 && Set(opened.object.keys) == ["id", "code", "class_id", "expires_at", "max_scans"])
            #expect(opened.object["class_id"] as? String == sevenA && opened.object["max_scans"] as? Int == 1)
            #expect(opened.object["expires_at"] as? String == "2026-11-22T06:10:00.000Z")
            let code = try #require(opened.object["code"] as? String)
            #expect(code.hasPrefix((opened.object["id"] as? String ?? "") + "."))

            let scanned = try await api.post("/api/mobile/attendance/qr/scan", as: fixture.student, json: ["code": code])
            #expect(scanned.status == 200 && scanned.object["success"] as? Bool == true && scanned.object["status"] as? String == "PRESENT")
            #expect(scanned.object["student_id"] as? String == own.id)
            let twice = try await api.post("/api/mobile/attendance/qr/scan", as: fixture.student, json: ["code": code], headers: Self.en)
            #expect(twice.status == 409 && twice.code == "ATTENDANCE_ALREADY_CHECKED_IN" && twice.text.contains("Already checked in"))
            // Marked absent after all, the student scans again: the window's one scan is used.
            _ = try await api.post("/api/mobile/attendance/mark", as: fixture.teacher, json: ["student_id": own.id, "status": "ABSENT"])
            let full = try await api.post("/api/mobile/attendance/qr/scan", as: fixture.student, json: ["code": code])
            #expect(full.status == 409 && full.code == "ATTENDANCE_CHECK_IN_FULL")

            let unlimited = try await api.post("/api/mobile/attendance/qr", as: fixture.teacher, json: ["class_id": sevenA])
            #expect(unlimited.object["max_scans"] is NSNull && unlimited.object["expires_at"] as? String == "2026-11-22T06:05:00.000Z", "the school's 5 minutes")
            let other = try await api.post("/api/mobile/attendance/qr", as: fixture.admin, json: ["class_id": try fixture.classID("8A")])
            let otherCode = try #require(other.object["code"] as? String)
            #expect(try await api.post("/api/mobile/attendance/qr/scan", as: fixture.student, json: ["code": otherCode]).code == "ATTENDANCE_CODE_OTHER_CLASS")
            #expect(try await api.post("/api/mobile/attendance/qr/scan", as: fixture.student, json: ["code": otherCode]).status == 403)
            let forged = try await api.post("/api/mobile/attendance/qr/scan", as: fixture.student, json: ["code": "0123456789.0000000000000000"])
            #expect(forged.status == 404 && forged.code == "ATTENDANCE_CODE_INVALID")
            #expect(try await api.post("/api/mobile/attendance/qr/scan", as: fixture.teacher, json: ["code": code]).status == 403)
            #expect(try await api.post("/api/mobile/attendance/qr/scan", as: fixture.student, json: [String: Any]()).fields == ["code"])

            let notTaught = try await api.post("/api/mobile/attendance/qr", as: fixture.teacher, json: ["class_id": try fixture.classID(fixture.notTaught)])
            #expect(notTaught.status == 404 && notTaught.code == "STUDENTS_UNKNOWN_CLASS")
            #expect(try await api.post("/api/mobile/attendance/qr", as: fixture.student, json: ["class_id": sevenA]).status == 403)
            #expect(try await api.post("/api/mobile/attendance/qr", as: fixture.admin, json: ["class_id": fixture.nileClass]).status == 404)
            #expect(try await api.post("/api/mobile/attendance/qr", as: fixture.teacher, json: ["class_id": sevenA, "duration_minutes": 0]).fields == ["duration_minutes"])
            #expect(try await api.post("/api/mobile/attendance/qr", as: fixture.teacher, json: ["class_id": sevenA, "max_scans": 0]).fields == ["max_scans"])
            #expect(try await api.post("/api/mobile/attendance/qr", as: fixture.teacher, json: ["duration_minutes": 5]).fields == ["class_id"])
            #expect(try await api.post("/api/mobile/attendance/qr", json: ["class_id": sevenA]).status == 401)

            fixture.base.clock.advance(minutes: 6)
            let expired = try await api.post("/api/mobile/attendance/qr/scan", as: fixture.student,
                                             json: ["code": try #require(unlimited.object["code"] as? String)])
            #expect(expired.status == 410 && expired.code == "ATTENDANCE_CODE_EXPIRED")
        }
    }

    @Test("excuses: a guardian submits for their child's record, staff review; approval turns the record EXCUSED")
    func excuses() async throws {
        let fixture = try RoutesFixture()
        let (children, stranger) = try fixture.family()
        let child = try #require(children.first)
        try fixture.base.run(TakeAttendance.self, .init(classCode: child.classCode ?? "", marks: [AttendanceMark(student: child.grNumber, status: .absent)]))
        let record = try fixture.base.run(AttendanceRecords.self, .init(student: child.id, limit: 1)).records[0].id
        let strangerRecord = try fixture.base.run(AttendanceRecords.self, .init(student: stranger, limit: 1)).records[0].id
        try await fixture.harness.api { api in
            let body: [String: Any] = ["attendance_id": record, "reason": "MEDICAL", "description": "Fever", "attachments": ["https://example.org/note.pdf"]]
            let submitted = try await api.post("/api/mobile/attendance/excuses", as: fixture.parent, json: body)
            #expect(submitted.status == 201 && Set(submitted.object.keys) == Self.excuseKeys)
            #expect(submitted.object["attendance_id"] as? String == record && submitted.object["student_id"] as? String == child.id)
            #expect(submitted.object["status"] as? String == "PENDING" && submitted.object["attendance_status"] as? String == "ABSENT")
            #expect(submitted.object["attendance_date"] as? String == "2026-11-22T00:00:00.000Z" && submitted.object["reviewed_at"] is NSNull)
            #expect(submitted.object["attachments"] as? [String] == ["https://example.org/note.pdf"] && submitted.object["submitted_by"] as? String == fixture.parent.userID)
            let id = try #require(submitted.object["id"] as? String)

            let twice = try await api.post("/api/mobile/attendance/excuses", as: fixture.parent, json: body)
            #expect(twice.status == 409 && twice.code == "ATTENDANCE_EXCUSE_EXISTS")
            #expect(try await api.post("/api/mobile/attendance/excuses", as: fixture.parent, json: ["attendance_id": record, "reason": "BORED"]).fields == ["reason"])
            #expect(try await api.post("/api/mobile/attendance/excuses", as: fixture.parent,
                                       json: ["attendance_id": record, "reason": "OTHER", "attachments": Array(repeating: "https://a.org/x", count: 6)]).fields == ["attachments"])
            #expect(try await api.post("/api/mobile/attendance/excuses", as: fixture.parent,
                                       json: ["attendance_id": record, "reason": "OTHER", "attachments": ["javascript:alert(1)"]]).fields == ["attachments[0]"])
            #expect(try await api.post("/api/mobile/attendance/excuses", as: fixture.parent,
                                       json: ["attendance_id": record, "reason": "OTHER", "description": String(repeating: "x", count: 2001)]).fields == ["description"])
            let foreign = try await api.post("/api/mobile/attendance/excuses", as: fixture.parent, json: ["attendance_id": strangerRecord, "reason": "OTHER"])
            #expect(foreign.status == 404 && foreign.code == "ATTENDANCE_UNKNOWN_RECORD", "another family's record reads like no record")
            let noRecord = UUID().uuidString
            let nowhere = try await api.post("/api/mobile/attendance/excuses", as: fixture.parent, json: ["attendance_id": noRecord, "reason": "OTHER"])
            #expect(foreign.refusal(asked: strangerRecord) == nowhere.refusal(asked: noRecord))
            #expect(try await api.post("/api/mobile/attendance/excuses", as: fixture.parent, json: ["attendance_id": "nope", "reason": "OTHER"]).code == "ATTENDANCE_UNKNOWN_RECORD")
            #expect(try await api.post("/api/mobile/attendance/excuses", as: fixture.teacher, json: ["attendance_id": record, "reason": "OTHER"]).status == 403)
            #expect(try await api.post("/api/mobile/attendance/excuses", json: ["attendance_id": record, "reason": "OTHER"]).status == 401)

            let mine = try await api.get("/api/mobile/attendance/excuses", as: fixture.parent)
            #expect(mine.status == 200 && mine.object["total"] as? Int == 1 && mine.object["per_page"] as? Int == 50 && mine.data.first?["id"] as? String == id)
            #expect(try await api.get("/api/mobile/attendance/excuses?status=PENDING&student_id=\(child.id)", as: fixture.admin).object["total"] as? Int == 1)
            #expect(try await api.get("/api/mobile/attendance/excuses?student_id=\(stranger)", as: fixture.admin).object["total"] as? Int == 0)
            #expect(try await api.get("/api/mobile/attendance/excuses", as: fixture.student).data.isEmpty || child.userID == fixture.student.userID)
            #expect(try await api.get("/api/mobile/attendance/excuses", as: fixture.harness.user(.admin, in: fixture.nile)).object["total"] as? Int == 0)
            #expect(try await api.get("/api/mobile/attendance/excuses?status=MAYBE", as: fixture.admin).fields == ["status"])
            #expect(try await api.get("/api/mobile/attendance/excuses").status == 401)

            #expect(try await api.put("/api/mobile/attendance/excuses/\(id)", as: fixture.parent, json: ["status": "APPROVED"]).status == 403)
            #expect(try await api.put("/api/mobile/attendance/excuses/\(id)", as: fixture.admin, json: ["status": "PENDING"]).fields == ["status"])
            #expect(try await api.put("/api/mobile/attendance/excuses/\(id)", as: fixture.harness.user(.admin, in: fixture.nile), json: ["status": "APPROVED"]).status == 404)
            let approved = try await api.put("/api/mobile/attendance/excuses/\(id)", as: fixture.admin, json: ["status": "APPROVED", "review_notes": "Get well"])
            #expect(approved.status == 200 && approved.object["status"] as? String == "APPROVED" && approved.object["attendance_status"] as? String == "EXCUSED")
            #expect(approved.object["review_notes"] as? String == "Get well" && approved.object["reviewed_at"] is String)
            let again = try await api.put("/api/mobile/attendance/excuses/\(id)", as: fixture.admin, json: ["status": "REJECTED"])
            #expect(again.status == 409 && again.code == "ATTENDANCE_ALREADY_DECIDED")
            // A teacher of none of the child's classes cannot tell the excuse exists, nor that it was decided.
            let outsider = fixture.user(.teacher)
            let decided = try await api.put("/api/mobile/attendance/excuses/\(id)", as: outsider, json: ["status": "REJECTED"])
            let noExcuse = UUID().uuidString
            let random = try await api.put("/api/mobile/attendance/excuses/\(noExcuse)", as: outsider, json: ["status": "REJECTED"])
            #expect(decided.status == 404 && decided.code == "ATTENDANCE_UNKNOWN_EXCUSE")
            #expect(decided.refusal(asked: id) == random.refusal(asked: noExcuse))
            #expect(try await api.put("/api/mobile/attendance/excuses/unknown-id", as: fixture.admin, json: ["status": "REJECTED"]).status == 404)
        }
        #expect(try fixture.base.run(AttendanceRecords.self, .init(student: child.id, limit: 1)).records[0].status == .excused)
    }

    @Test("the dashboard shows a student their rate; admin stats count today's records")
    func dashboardAndStats() async throws {
        let fixture = try RoutesFixture()
        let own = try fixture.base.run(AttendanceSummary.self, .init(), as: fixture.student)
        let sevenA = try fixture.lines("7A")
        try await fixture.harness.api { api in
            let dashboard = try await api.get("/api/mobile/dashboard", as: fixture.student)
            #expect(dashboard.status == 200)
            let percentage = try #require(dashboard.object["attendance_percentage"] as? Double)
            #expect(abs(percentage - (own.rate ?? 0)) < 0.01)
            #expect(try await api.get("/api/mobile/dashboard", as: fixture.teacher).object["attendance_percentage"] == nil, "only a student's")

            let empty = try await api.get("/api/mobile/admin/stats", as: fixture.admin)
            #expect(empty.status == 200 && empty.object["today_attendance_count"] as? Int == 0 && empty.object["today_attendance_rate"] as? Double == 0)
            let records = sevenA.prefix(4).enumerated().map { ["student_id": $1.studentID, "status": $0 == 0 ? "ABSENT" : $0 == 1 ? "LATE" : "PRESENT"] }
            #expect(try await api.post("/api/mobile/attendance/bulk", as: fixture.admin, json: ["records": records]).status == 200)
            let stats = try await api.get("/api/mobile/admin/stats", as: fixture.admin)
            #expect(stats.object["today_attendance_count"] as? Int == 4 && stats.object["today_present_count"] as? Int == 3)
            #expect(stats.object["today_attendance_rate"] as? Double == 75)
            #expect(try await api.get("/api/mobile/admin/stats", as: fixture.teacher).status == 403)
        }
    }
}
