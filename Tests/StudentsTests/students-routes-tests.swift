import Auth
import Core
import Foundation
import HogwartsTestSupport
@testable import Students
import Testing

/// The roster's HTTP routes as a phone sees them: the contract's keys and values, and every
/// refusal (no token, a role without the permission, another class, family or school, bad input).
@Suite("Students routes")
struct StudentsRoutesTests {
    static let english = ["Accept-Language": "en"]

    /// A date as the contract sends it: a `toISOString()` instant with milliseconds, which an
    /// ISO 8601 decoder (the app's) reads; a date-only string fails the whole response there.
    static func isInstant(_ value: Any?) -> Bool {
        guard let text = value as? String else { return false }
        let reader = ISO8601DateFormatter()
        reader.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return text.hasSuffix(".000Z") && reader.date(from: text) != nil
    }

    /// The fixture's roster plus a second school with a class and a student of its own.
    struct Setup: @unchecked Sendable {
        let roster: RosterFixture
        let otherAdmin: Principal
        let otherStudentID: String
        let otherClassID: String
        let classIDs: [String: String]

        init() throws {
            roster = try RosterFixture()
            let kernel = roster.harness.kernel
            let other = try roster.harness.makeSchool("other-school")
            otherAdmin = roster.harness.user(.admin, in: other)
            try kernel.run(CreateSchoolYear.self, .init(name: "2026-2027", startsOn: "2026-09-01", endsOn: "2027-06-30"), as: otherAdmin, in: other.id)
            try kernel.run(CreateYearLevel.self, .init(code: "G7", name: LocalizedText(ar: "س", en: "7"), position: 1), as: otherAdmin, in: other.id)
            otherClassID = try kernel.run(CreateClass.self, .init(code: "7A", name: LocalizedText(ar: "س", en: "Other 7A"), yearLevel: "G7"),
                                          as: otherAdmin, in: other.id)
            otherStudentID = try kernel.run(CreateStudent.self, StudentFields(
                grNumber: "GR-1", givenName: "Secret", surname: "Other", dateOfBirth: "2013-01-01", gender: "FEMALE", classCode: "7A"),
                as: otherAdmin, in: other.id).id
            classIDs = Dictionary(uniqueKeysWithValues: try roster.run(ListClasses.self, .init()).map { ($0.code, $0.id) })
        }

        func id(_ gr: String) throws -> String { try roster.run(ShowStudent.self, .init(grNumber: gr)).student.id }
        var admin: Principal { roster.admin }
    }

    // MARK: GET /students

    @Test("the list answers the contract's keys, 50 a page, each role seeing only whom it may")
    func list() async throws {
        let setup = try Setup()
        try setup.roster.addStudent("GR-5", "Sam", "Nobody", class: nil, language: "en")
        try await setup.roster.harness.api { api in
            let teacher = try await api.get("/api/mobile/students", as: setup.roster.teacher7A, headers: Self.english)
            #expect(teacher.status == 200)
            #expect(teacher.object["total"] as? Int == 2 && teacher.object["page"] as? Int == 1 && teacher.object["per_page"] as? Int == 50)
            #expect(Set(teacher.data.compactMap { $0["gr_number"] as? String }) == ["GR-1", "GR-2"], "a teacher sees their own class only")
            let first = try #require(teacher.data.first)
            #expect(Set(first.keys) == ["id", "given_name", "family_name", "gr_number", "gender", "date_of_birth", "status", "photo_url", "phone", "section"])
            #expect(first["photo_url"] is NSNull && first["phone"] is NSNull)
            #expect(first["date_of_birth"] as? String == "2013-05-04T00:00:00.000Z" && first["status"] as? String == "ACTIVE" && first["gender"] as? String == "MALE")
            let section = try #require(first["section"] as? [String: Any])
            #expect(section["id"] as? String == setup.classIDs["7A"] && section["name"] as? String == "7-A" && section["grade"] as? String == "Grade 7")
            let arabic = try await api.get("/api/mobile/students", as: setup.roster.teacher7A)
            #expect((arabic.data.first?["section"] as? [String: Any])?["name"] as? String == "السابع أ", "Arabic unless the client asks for English")

            let all = try await api.get("/api/mobile/students?per_page=2&page=3", as: setup.admin)
            #expect(all.object["total"] as? Int == 5 && all.data.count == 1 && all.object["per_page"] as? Int == 2)
            let unplaced = try await api.get("/api/mobile/students?search=Nobody", as: setup.admin)
            #expect(unplaced.data.count == 1 && unplaced.data.first?["section"] is NSNull, "a student in no class has section null")
            let byClass = try await api.get("/api/mobile/students?section_id=\(setup.classIDs["8A"] ?? "")", as: setup.admin)
            #expect(Set(byClass.data.compactMap { $0["gr_number"] as? String }) == ["GR-3", "GR-4"])
            let guardian = try await api.get("/api/mobile/students", as: setup.roster.guardian)
            #expect(Set(guardian.data.compactMap { $0["gr_number"] as? String }) == ["GR-1", "GR-3"])
            let student = try await api.get("/api/mobile/students", as: setup.roster.studentUser)
            #expect(student.status == 200 && student.object["total"] as? Int == 0, "no record is tied to this account")
            let otherSchool = try await api.get("/api/mobile/students?search=Secret", as: setup.admin)
            #expect(otherSchool.object["total"] as? Int == 0)
        }
    }

    @Test("the list shows ACTIVE students unless asked for a status; an unknown status is 400 naming it")
    func listStatus() async throws {
        let setup = try Setup()
        try setup.roster.run(UpdateStudent.self, StudentChange(grNumber: "GR-4", status: "GRADUATED"))
        try await setup.roster.harness.api { api in
            let active = try await api.get("/api/mobile/students", as: setup.admin)
            #expect(active.object["total"] as? Int == 3)
            let graduated = try await api.get("/api/mobile/students?status=GRADUATED", as: setup.admin)
            #expect(graduated.data.map { $0["gr_number"] as? String } == ["GR-4"])
            let bad = try await api.get("/api/mobile/students?status=ASLEEP", as: setup.admin, headers: Self.english)
            #expect(bad.status == 400 && bad.code == "INVALID_FIELD")
            #expect((bad.object["details"] as? [[String: Any]])?.first?["field"] as? String == "status")
        }
    }

    @Test("the list's hand-written JSON is exactly what the encoder writes, quotes, backslashes and control characters included")
    func listJSON() throws {
        let roster = try RosterFixture()
        try roster.addStudent("GR-\"9\"", "Zoë \"the\" \\ 🦉", "Ünal", class: "8A", language: "en")
        var students = try roster.run(ListStudents.self, .init(pageSize: 100)).students
        students.append(Student(row: SQLRow(columns: [
            "id": .text("x\u{01}y"), "gr_number": .text("\u{1F}"), "given_name": .text("a\nb\tc\r"), "surname": .text("/\\\""),
            "date_of_birth": .text("2013-01-01"), "gender": .text("FEMALE"), "status": .text("ACTIVE"),
            "class_id": .text("c"), "class_name_ar": .text("\u{7F}"), "class_name_en": .text("e"),
        ])))
        // Birth date and sex not recorded: null in both.
        students.append(Student(row: SQLRow(columns: [
            "id": .text("n"), "gr_number": .text("GR-N"), "given_name": .text("N"), "surname": .text("M"),
            "date_of_birth": .text(""), "gender": .text(""), "status": .text("ACTIVE"),
        ])))
        let paging = APIPaging(page: 3, perPage: 7)
        for language in [Language.ar, .en] {
            let written = StudentListBody.page(students, total: 1234, paging: paging, language: language)
            let encoded = try APIJSON.encoder(.snakeCase).encode(APIPage(data: students.map { StudentItem($0, language) }, total: 1234, paging: paging))
            let expected = try JSONSerialization.jsonObject(with: encoded) as? NSDictionary
            #expect(try JSONSerialization.jsonObject(with: written) as? NSDictionary == expected)
            #expect(expected?["data"] as? [Any] != nil && (expected?["data"] as? [Any])?.count == 7)
            let last = (expected?["data"] as? [[String: Any]])?.last
            #expect(last?["gender"] is NSNull && last?["date_of_birth"] is NSNull)
        }
    }

    @Test("the list refuses a missing token, a role without the roster, and bad paging", arguments: [
        ("/api/mobile/students?per_page=101", "per_page"), ("/api/mobile/students?page=abc", "page"), ("/api/mobile/students?page=0", "page"),
        ("/api/mobile/students?page=100001", "page"), ("/api/mobile/students?search=a%01b", "search"),
    ])
    func listRefusals(path: String, field: String) async throws {
        let setup = try Setup()
        try await setup.roster.harness.api { api in
            #expect(try await api.get("/api/mobile/students").status == 401)
            let accountant = try await api.get("/api/mobile/students", as: setup.roster.harness.user(.accountant))
            #expect(accountant.status == 403)
            let bad = try await api.get(path, as: setup.admin)
            #expect(bad.status == 400 && bad.code == "INVALID_FIELD")
            #expect((bad.object["details"] as? [[String: Any]])?.first?["field"] as? String == field)
        }
    }

    // MARK: POST /students

    @Test("an administrator admits a student; the GR number is allocated when none is given")
    func create() async throws {
        let setup = try Setup()
        try await setup.roster.harness.api { api in
            let body: [String: Any] = ["given_name": "Lina", "family_name": "Hassan", "gender": "FEMALE", "date_of_birth": "2014-02-03",
                                       "section_id": setup.classIDs["8A"] ?? "", "email": "pupil@school.org"]
            let created = try await api.post("/api/mobile/students", as: setup.admin, json: body)
            #expect(created.status == 201)
            #expect(Set(created.object.keys) == ["id", "given_name", "family_name", "gr_number"])
            #expect(created.object["given_name"] as? String == "Lina" && created.object["gr_number"] as? String == "GR-2026-0001")
            let id = try #require(created.object["id"] as? String)
            let detail = try await api.get("/api/mobile/students/\(id)", as: setup.admin, headers: Self.english)
            #expect((detail.object["section"] as? [String: Any])?["name"] as? String == "8-A")
            #expect(detail.object["email"] as? String == "pupil@school.org", "tied to the STUDENT account with that email")
            let mine = try await api.get("/api/mobile/students", as: setup.roster.studentUser)
            #expect(mine.data.map { $0["id"] as? String } == [id], "that account now sees its own record")

            var second = body
            second["email"] = nil
            second["given_name"] = "Noor"
            let next = try await api.post("/api/mobile/students", as: setup.admin, json: second)
            #expect(next.status == 201 && next.object["gr_number"] as? String == "GR-2026-0002")
            second["gr_number"] = "GR-1"
            let taken = try await api.post("/api/mobile/students", as: setup.admin, json: second, headers: Self.english)
            #expect(taken.status == 409 && taken.code == "STUDENTS_GR_TAKEN")
        }
    }

    @Test("admission refuses other roles, bad fields (naming them), unknown and full classes")
    func createRefusals() async throws {
        let setup = try Setup()
        try await setup.roster.harness.api { api in
            let valid: [String: Any] = ["given_name": "Lina", "family_name": "Hassan", "gender": "FEMALE", "date_of_birth": "2014-02-03"]
            #expect(try await api.post("/api/mobile/students", json: valid).status == 401)
            for principal in [setup.roster.teacher7A, setup.roster.guardian, setup.roster.harness.user(.staff)] {
                #expect(try await api.post("/api/mobile/students", as: principal, json: valid).status == 403)
            }
            var robot = valid
            robot["gender"] = "ROBOT"
            var nameless = valid
            nameless["given_name"] = nil
            for (field, body) in [("gender", robot), ("given_name", nameless)] {
                let bad = try await api.post("/api/mobile/students", as: setup.admin, json: body)
                #expect(bad.status == 400 && bad.code == "INVALID_FIELD", "\(field)")
                #expect((bad.object["details"] as? [[String: Any]])?.first?["field"] as? String == field)
            }
            var future = valid
            future["date_of_birth"] = "2030-01-01"
            let unborn = try await api.post("/api/mobile/students", as: setup.admin, json: future, headers: Self.english)
            #expect(unborn.status == 400 && (unborn.object["error"] as? String ?? "").contains("date_of_birth"))
            var blank = valid
            blank["family_name"] = "  "
            #expect(try await api.post("/api/mobile/students", as: setup.admin, json: blank).status == 400)
            let malformed = try await api.request(.post, "/api/mobile/students", as: setup.admin, raw: "{not json")
            #expect(malformed.status == 400 && malformed.code == "MALFORMED_JSON")

            var foreignClass = valid
            foreignClass["section_id"] = setup.otherClassID
            let foreign = try await api.post("/api/mobile/students", as: setup.admin, json: foreignClass)
            #expect(foreign.status == 404 && foreign.code == "STUDENTS_UNKNOWN_CLASS", "another school's class is not there")
            var full = valid
            full["section_id"] = setup.classIDs["7A"]
            #expect(try await api.post("/api/mobile/students", as: setup.admin, json: full).status == 201, "the last seat of 7A")
            let refused = try await api.post("/api/mobile/students", as: setup.admin, json: full)
            #expect(refused.status == 409 && refused.code == "STUDENTS_CLASS_FULL")
            var stranger = valid
            stranger["email"] = "t7a@school.org"
            #expect(try await api.post("/api/mobile/students", as: setup.admin, json: stranger).status == 404, "not a STUDENT account")
        }
    }

    // MARK: GET /students/:studentId

    @Test("the detail answers the contract's keys, by id or GR number")
    func show() async throws {
        let setup = try Setup()
        let id = try setup.id("GR-1")
        try await setup.roster.harness.api { api in
            let detail = try await api.get("/api/mobile/students/\(id)", as: setup.roster.teacher7A, headers: Self.english)
            #expect(detail.status == 200)
            #expect(Set(detail.object.keys) == ["id", "given_name", "family_name", "gr_number", "gender", "date_of_birth", "status", "photo_url",
                                                "phone", "section", "student_id", "nationality", "blood_group", "email", "enrollment_date",
                                                "admission_number"])
            #expect(detail.object["id"] as? String == id && detail.object["enrollment_date"] as? String == "2026-09-01T00:00:00.000Z")
            for key in ["student_id", "nationality", "blood_group", "email", "admission_number", "photo_url", "phone"] {
                #expect(detail.object[key] is NSNull, "\(key) is null, not missing")
            }
            let byNumber = try await api.get("/api/mobile/students/GR-1", as: setup.admin)
            #expect(byNumber.object["id"] as? String == id)
        }
    }

    @Test("the detail refuses another teacher's student, another family's child, another student and another school, never showing them")
    func showRefusals() async throws {
        let setup = try Setup()
        try setup.roster.run(LinkStudentAccount.self, .init(grNumber: "GR-2", email: "pupil@school.org"))
        let (first, second, third) = (try setup.id("GR-1"), try setup.id("GR-2"), try setup.id("GR-3"))
        try await setup.roster.harness.api { api in
            #expect(try await api.get("/api/mobile/students/\(first)").status == 401)
            #expect(try await api.get("/api/mobile/students/\(first)", as: setup.roster.harness.user(.accountant)).status == 403)
            let refusals: [(Principal, String, Int)] = [
                (setup.roster.teacher7A, third, 404), (setup.roster.teacher8A, first, 404), (setup.roster.guardian, second, 404),
                (setup.roster.studentUser, first, 404), (setup.otherAdmin, first, 404), (setup.admin, setup.otherStudentID, 404),
                (setup.admin, "no-such-student", 404),
            ]
            for (principal, id, status) in refusals {
                let refused = try await api.get("/api/mobile/students/\(id)", as: principal)
                #expect(refused.status == status, "\(principal.userID) asking for \(id)")
                #expect(refused.object["given_name"] == nil && !refused.text.contains("Secret"))
                // Someone who exists but is out of reach reads exactly like someone who does not.
                let unknown = UUID().uuidString.lowercased()
                let nobody = try await api.get("/api/mobile/students/\(unknown)", as: principal)
                #expect(refused.refusal(asked: id) == nobody.refusal(asked: unknown), "\(principal.userID) asking for \(id)")
            }
            #expect(try await api.get("/api/mobile/students/\(second)", as: setup.roster.studentUser).status == 200, "a student sees themself")
            #expect(try await api.get("/api/mobile/students/\(third)", as: setup.roster.guardian).status == 200, "a guardian sees their child")
        }
    }

    // MARK: PUT and DELETE /students/:studentId

    @Test("an administrator edits a student's names, gender, class and status")
    func update() async throws {
        let setup = try Setup()
        let id = try setup.id("GR-2")
        try await setup.roster.harness.api { api in
            let body: [String: Any] = ["given_name": "Fatima", "status": "SUSPENDED", "gender": "FEMALE", "section_id": setup.classIDs["8A"] ?? ""]
            let edited = try await api.put("/api/mobile/students/\(id)", as: setup.admin, json: body)
            #expect(edited.status == 200)
            #expect(Set(edited.object.keys) == ["id", "given_name", "family_name", "status"])
            #expect(edited.object["given_name"] as? String == "Fatima" && edited.object["status"] as? String == "SUSPENDED")
            #expect(edited.object["family_name"] as? String == "الأمين", "an absent field stays as it was")
            let moved = try await api.get("/api/mobile/students/\(id)", as: setup.roster.teacher8A)
            #expect(moved.status == 200 && moved.object["gender"] as? String == "FEMALE", "now in the class teacher8A teaches")
            #expect(try await api.put("/api/mobile/students/\(id)", as: setup.admin, json: [String: Any]()).status == 200)

            let bad = try await api.put("/api/mobile/students/\(id)", as: setup.admin, json: ["status": "ASLEEP"])
            #expect(bad.status == 400 && (bad.object["details"] as? [[String: Any]])?.first?["field"] as? String == "status")
            let wrongType = try await api.put("/api/mobile/students/\(id)", as: setup.admin, json: ["given_name": 7])
            #expect(wrongType.status == 400 && (wrongType.object["details"] as? [[String: Any]])?.first?["field"] as? String == "given_name")
            #expect(try await api.put("/api/mobile/students/\(id)", json: ["given_name": "X"]).status == 401)
            #expect(try await api.put("/api/mobile/students/\(id)", as: setup.roster.teacher8A, json: ["given_name": "X"]).status == 403)
            #expect(try await api.put("/api/mobile/students/\(id)", as: setup.otherAdmin, json: ["given_name": "X"]).status == 404)
            #expect(try await api.put("/api/mobile/students/\(setup.otherStudentID)", as: setup.admin, json: ["given_name": "X"]).status == 404)
            let noClass = try await api.put("/api/mobile/students/\(id)", as: setup.admin, json: ["section_id": setup.otherClassID])
            #expect(noClass.status == 404 && noClass.code == "STUDENTS_UNKNOWN_CLASS")
        }
    }

    @Test("an administrator archives a student, who then is not found; others are refused")
    func archive() async throws {
        let setup = try Setup()
        let id = try setup.id("GR-1")
        try await setup.roster.harness.api { api in
            #expect(try await api.delete("/api/mobile/students/\(id)").status == 401)
            #expect(try await api.delete("/api/mobile/students/\(id)", as: setup.roster.teacher7A).status == 403)
            #expect(try await api.delete("/api/mobile/students/\(id)", as: setup.otherAdmin).status == 404)
            #expect(try await api.delete("/api/mobile/students/\(setup.otherStudentID)", as: setup.admin).status == 404)
            let archived = try await api.delete("/api/mobile/students/\(id)", as: setup.admin)
            #expect(archived.status == 200 && archived.object["success"] as? Bool == true)
            #expect(try await api.get("/api/mobile/students/\(id)", as: setup.admin).status == 404)
            #expect(try await api.delete("/api/mobile/students/\(id)", as: setup.admin).status == 404)
        }
        #expect(try setup.roster.run(ListStudents.self, .init(includeArchived: true)).total == 4, "archived, not deleted")
    }

    // MARK: Guardian

    @Test("a guardian lists their children with relationship, class and year level")
    func children() async throws {
        let setup = try Setup()
        let (ahmed, mohamed) = (try setup.id("GR-1"), try setup.id("GR-3"))
        try await setup.roster.harness.api { api in
            let children = try await api.get("/api/mobile/guardian/children", as: setup.roster.guardian, headers: Self.english)
            #expect(children.status == 200)
            #expect(Set(children.data.compactMap { $0["id"] as? String }) == [ahmed, mohamed])
            let first = try #require(children.data.first { $0["id"] as? String == ahmed })
            #expect(Set(first.keys) == ["id", "given_name", "family_name", "gender", "date_of_birth", "photo_url", "status", "relationship", "section", "grade"])
            #expect(first["relationship"] as? String == "MOTHER" && first["section"] as? String == "7-A" && first["grade"] as? String == "Grade 7")
            #expect(first["photo_url"] is NSNull)
            #expect(children.data.allSatisfy { Self.isInstant($0["date_of_birth"]) }, "the app's ISO 8601 decoder reads every birthday")

            #expect(try await api.get("/api/mobile/guardian/children").status == 401)
            for principal in [setup.roster.teacher7A, setup.admin, setup.roster.studentUser] {
                let refused = try await api.get("/api/mobile/guardian/children", as: principal)
                #expect(refused.status == 403 && refused.code == "STUDENTS_NOT_A_GUARDIAN", "\(principal.role)")
            }
            #expect(try await api.get("/api/mobile/guardian/children", as: setup.roster.harness.user(.accountant)).status == 403)
        }
    }

    @Test("a guardian reads their own child's detail only")
    func child() async throws {
        let setup = try Setup()
        let (own, other) = (try setup.id("GR-3"), try setup.id("GR-2"))
        try await setup.roster.harness.api { api in
            let detail = try await api.get("/api/mobile/guardian/children/\(own)", as: setup.roster.guardian, headers: Self.english)
            #expect(detail.status == 200 && detail.object["gr_number"] as? String == "GR-3")
            // Dates as the contract sends them: toISOString() instants, which ISO 8601 decoders read.
            #expect(detail.object["enrollment_date"] as? String == "2026-09-01T00:00:00.000Z")
            #expect(Self.isInstant(detail.object["date_of_birth"]))
            #expect(detail.object.keys.contains("admission_number"))
            let refused = try await api.get("/api/mobile/guardian/children/\(other)", as: setup.roster.guardian)
            #expect(refused.status == 404 && refused.code == "STUDENTS_UNKNOWN_STUDENT" && refused.object["given_name"] == nil)
            let unknown = UUID().uuidString
            let nobody = try await api.get("/api/mobile/guardian/children/\(unknown)", as: setup.roster.guardian)
            #expect(refused.refusal(asked: other) == nobody.refusal(asked: unknown), "another family's child reads like nobody")
            #expect(try await api.get("/api/mobile/guardian/children/\(setup.otherStudentID)", as: setup.roster.guardian).status == 404)
            #expect(try await api.get("/api/mobile/guardian/children/\(own)", as: setup.roster.teacher8A).status == 403, "not a guardian")
            #expect(try await api.get("/api/mobile/guardian/children/\(own)").status == 401)
        }
    }

    // MARK: Teacher

    @Test("a teacher lists their classes: one row per subject, a homeroom class without one")
    func teacherClasses() async throws {
        let setup = try Setup()
        try await setup.roster.harness.api { api in
            let taught = try await api.get("/api/mobile/teacher/classes", as: setup.roster.teacher8A, headers: Self.english)
            #expect(taught.status == 200 && taught.data.count == 1)
            let row = try #require(taught.data.first)
            #expect(Set(row.keys) == ["section_id", "section_name", "grade_name", "subject_name", "student_count"])
            #expect(row["section_id"] as? String == setup.classIDs["8A"] && row["section_name"] as? String == "8-A")
            #expect(row["grade_name"] as? String == "Grade 8" && row["subject_name"] as? String == "Maths" && row["student_count"] as? Int == 2)
            let homeroom = try await api.get("/api/mobile/teacher/classes", as: setup.roster.teacher7A)
            #expect(homeroom.data.count == 1 && homeroom.data.first?["subject_name"] is NSNull && homeroom.data.first?["student_count"] as? Int == 2)
            #expect(try await api.get("/api/mobile/teacher/classes", as: setup.admin).data.isEmpty, "an admin who teaches nothing")

            #expect(try await api.get("/api/mobile/teacher/classes").status == 401)
            for principal in [setup.roster.guardian, setup.roster.studentUser] {
                let refused = try await api.get("/api/mobile/teacher/classes", as: principal)
                #expect(refused.status == 403 && refused.code == "STUDENTS_NOT_A_TEACHER")
            }
        }
    }

    @Test("a class's students are for its teachers and staff only")
    func classStudents() async throws {
        let setup = try Setup()
        let (seventh, eighth) = (setup.classIDs["7A"] ?? "", setup.classIDs["8A"] ?? "")
        try await setup.roster.harness.api { api in
            let own = try await api.get("/api/mobile/teacher/classes/\(eighth)/students", as: setup.roster.teacher8A)
            #expect(own.status == 200 && own.object["total"] as? Int == 2)
            #expect(Set(own.data.compactMap { $0["gr_number"] as? String }) == ["GR-3", "GR-4"])
            #expect(Set(own.data.first.map { Array($0.keys) } ?? []) == ["id", "given_name", "family_name", "gr_number", "gender", "photo_url"])
            #expect(try await api.get("/api/mobile/teacher/classes/\(seventh)/students", as: setup.roster.teacher7A).object["total"] as? Int == 2,
                    "the homeroom teacher")
            #expect(try await api.get("/api/mobile/teacher/classes/\(seventh)/students", as: setup.admin).status == 200)

            let other = try await api.get("/api/mobile/teacher/classes/\(seventh)/students", as: setup.roster.teacher8A)
            #expect(other.status == 404 && other.code == "STUDENTS_UNKNOWN_CLASS" && other.data.isEmpty, "another teacher's class is not there")
            let unknown = UUID().uuidString
            let nowhere = try await api.get("/api/mobile/teacher/classes/\(unknown)/students", as: setup.roster.teacher8A)
            #expect(other.refusal(asked: seventh) == nowhere.refusal(asked: unknown))
            for principal in [setup.roster.guardian, setup.roster.studentUser] {
                #expect(try await api.get("/api/mobile/teacher/classes/\(eighth)/students", as: principal).status == 403)
            }
            #expect(try await api.get("/api/mobile/teacher/classes/\(eighth)/students").status == 401)
            #expect(try await api.get("/api/mobile/teacher/classes/\(setup.otherClassID)/students", as: setup.admin).status == 404)
            #expect(try await api.get("/api/mobile/teacher/classes/\(eighth)/students", as: setup.otherAdmin).status == 404)
            #expect(try await api.get("/api/mobile/teacher/classes/nothing/students", as: setup.roster.teacher8A).status == 404)
        }
    }

    // MARK: Admin

    @Test("administrators page through classes with grade, homeroom teacher and enrolment, and open one with its students")
    func adminClasses() async throws {
        let setup = try Setup()
        try await setup.roster.harness.api { api in
            let page = try await api.get("/api/mobile/admin/classes", as: setup.admin, headers: Self.english)
            #expect(page.status == 200 && page.object["total"] as? Int == 2 && page.object["per_page"] as? Int == 50)
            let first = try #require(page.data.first)
            #expect(Set(first.keys) == ["id", "name", "letter", "max_capacity", "student_count", "grade", "homeroom_teacher", "classroom"])
            #expect(first["id"] as? String == setup.classIDs["7A"] && first["name"] as? String == "7-A" && first["letter"] as? String == "A")
            #expect(first["max_capacity"] as? Int == 3 && first["student_count"] as? Int == 2 && first["classroom"] is NSNull)
            let grade = try #require(first["grade"] as? [String: Any])
            #expect(grade["name"] as? String == "Grade 7" && grade["number"] as? Int == 1 && grade["id"] is String)
            #expect((first["homeroom_teacher"] as? [String: Any])?["name"] as? String == "t7a@school.org")
            #expect(page.data.last?["homeroom_teacher"] is NSNull)
            let second = try await api.get("/api/mobile/admin/classes?per_page=1&page=2", as: setup.admin)
            #expect(second.data.map { $0["id"] as? String } == [setup.classIDs["8A"]])

            let one = try await api.get("/api/mobile/admin/classes/\(setup.classIDs["8A"] ?? "")", as: setup.admin)
            #expect(one.status == 200 && (one.object["students"] as? [[String: Any]])?.count == 2 && one.object["student_count"] as? Int == 2)
            #expect(try await api.get("/api/mobile/admin/classes/\(setup.otherClassID)", as: setup.admin).status == 404)
            #expect(try await api.get("/api/mobile/admin/classes").status == 401)
            for principal in [setup.roster.teacher8A, setup.roster.guardian, setup.roster.harness.user(.staff)] {
                #expect(try await api.get("/api/mobile/admin/classes", as: principal).status == 403)
                #expect(try await api.get("/api/mobile/admin/classes/\(setup.classIDs["8A"] ?? "")", as: principal).status == 403)
            }
            #expect(try await api.get("/api/mobile/admin/classes?per_page=500", as: setup.admin).status == 400)
        }
    }

    @Test("every member reads their school's card with its totals")
    func school() async throws {
        let setup = try Setup()
        try await setup.roster.harness.api { api in
            for principal in [setup.roster.studentUser, setup.roster.guardian, setup.admin, setup.roster.harness.user(.accountant)] {
                let card = try await api.get("/api/mobile/admin/school", as: principal)
                #expect(card.status == 200, "\(principal.role)")
                #expect(card.object["name"] as? String == "مدرسة الاختبار" && card.object["name_en"] as? String == "Test School")
                #expect(card.object["domain"] as? String == "test-school" && card.object["id"] as? String == setup.roster.harness.school.id)
                #expect(card.object["total_students"] as? Int == 4 && card.object["total_teachers"] as? Int == 2 && card.object["total_sections"] as? Int == 2)
            }
            let other = try await api.get("/api/mobile/admin/school", as: setup.otherAdmin)
            #expect(other.object["domain"] as? String == "other-school" && other.object["total_students"] as? Int == 1)
            #expect(try await api.get("/api/mobile/admin/school").status == 401)
        }
    }

    @Test("the dashboard and admin stats carry the roster's totals for each role")
    func dashboard() async throws {
        let setup = try Setup()
        try await setup.roster.harness.api { api in
            let guardian = try await api.get("/api/mobile/dashboard", as: setup.roster.guardian)
            #expect(guardian.status == 200 && guardian.object["children_count"] as? Int == 2 && guardian.object["total_students"] == nil)
            let teacher = try await api.get("/api/mobile/dashboard", as: setup.roster.teacher8A)
            #expect(teacher.object["total_classes"] as? Int == 1 && teacher.object["children_count"] == nil)
            let admin = try await api.get("/api/mobile/dashboard", as: setup.admin)
            #expect(admin.object["total_students"] as? Int == 4 && admin.object["total_teachers"] as? Int == 2 && admin.object["total_classes"] as? Int == 2)
            let student = try await api.get("/api/mobile/dashboard", as: setup.roster.studentUser)
            #expect(student.status == 200 && student.object["total_students"] == nil)

            let stats = try await api.get("/api/mobile/admin/stats", as: setup.admin)
            #expect(stats.status == 200)
            #expect(stats.object["total_students"] as? Int == 4 && stats.object["total_teachers"] as? Int == 2)
            #expect(stats.object["total_guardians"] as? Int == 1 && stats.object["total_sections"] as? Int == 2)
            #expect(try await api.get("/api/mobile/admin/stats", as: setup.roster.teacher8A).status == 403)
        }
    }

    @Test("the OpenAPI document names every roster route")
    func openAPI() async throws {
        let setup = try Setup()
        try await setup.roster.harness.api { api in
            let paths = try await api.get("/openapi.json").object["paths"] as? [String: Any] ?? [:]
            for path in ["/api/mobile/students", "/api/mobile/students/{studentId}", "/api/mobile/guardian/children", "/api/mobile/guardian/children/{childId}",
                         "/api/mobile/teacher/classes", "/api/mobile/teacher/classes/{classId}/students", "/api/mobile/admin/classes",
                         "/api/mobile/admin/classes/{id}", "/api/mobile/admin/school"] {
                #expect(paths[path] != nil, "\(path)")
            }
        }
    }
}
