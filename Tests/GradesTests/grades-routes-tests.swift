import Auth
import Core
import Foundation
import Grades
import HogwartsTestSupport
import Students
import Testing

/// The demo school on 22 November 2026 (a Sunday), with the people a phone user would be, and
/// the second demo school for tenancy.
struct GradesAPIFixture {
    let base: GradesFixture
    let other: School

    init() throws {
        base = try GradesFixture()
        let school = base.school
        other = try #require(try base.harness.kernel.schools().first { $0.id != school.id })
    }

    var harness: TestHarness { base.harness }
    var admin: Principal { base.admin }
    func account(_ email: String) throws -> Principal { try base.account(email) }

    /// The first student of a class, as an admin sees them.
    func student(in classCode: String) throws -> Student {
        try #require(try base.run(ListStudents.self, .init(classCode: classCode)).students.first)
    }

    /// The student (or children) a person sees.
    func students(of principal: Principal) throws -> [Student] {
        try base.run(ListStudents.self, .init(), as: principal).students
    }

    /// A student of the other school.
    func foreignStudent() throws -> Student {
        try #require(try harness.kernel.run(ListStudents.self, .init(), as: harness.user(.admin, in: other), in: other.id).students.first)
    }

    func classID(_ code: String) throws -> String {
        try #require(try base.run(ListClasses.self, .init()).first { $0.code == code }).id
    }
}

@Suite("Grades API: results and summaries")
struct GradesResultRoutesTests {
    static let resultKeys: Set<String> = ["id", "title", "description", "score", "max_score", "percentage", "grade", "feedback",
                                          "submitted_at", "graded_at", "subject_name"]

    @Test("grades/student/:id pages a student's results with the contract's keys, to the student, their guardian and their teachers only")
    func studentResults() async throws {
        let fixture = try GradesAPIFixture()
        let student = try fixture.account("student@databayt.org")
        let me = try #require(try fixture.students(of: student).first)
        let parent = try fixture.account("parent@databayt.org")
        let child = try #require(try fixture.students(of: parent).first)
        let stranger = try fixture.student(in: "12C")
        let foreign = try fixture.foreignStudent()
        let teacher = try fixture.account("teacher@databayt.org")
        try await fixture.harness.api { api in
            let page = try await api.get("/api/mobile/grades/student/\(me.id)?per_page=5", as: student, headers: ["Accept-Language": "en"])
            #expect(page.status == 200)
            #expect(page.data.count == 5 && page.object["total"] as? Int == 32, "eight subjects, four assessments each")
            #expect(page.object["page"] as? Int == 1 && page.object["per_page"] as? Int == 5)
            let first = try #require(page.data.first)
            #expect(Set(first.keys) == Self.resultKeys)
            #expect(first["description"] is NSNull, "an absent value is an explicit null")
            #expect((first["submitted_at"] as? String)?.hasSuffix("T00:00:00.000Z") == true)
            #expect((first["graded_at"] as? String)?.hasSuffix("Z") == true)
            #expect(first["max_score"] as? Double != nil && !(first["subject_name"] as? String ?? "").isEmpty)
            let dates = page.data.compactMap { $0["submitted_at"] as? String }
            #expect(dates == dates.sorted(by: >), "newest first")
            let second = try await api.get("/api/mobile/grades/student/\(me.id)?per_page=5&page=2", as: student)
            #expect(Set(second.data.compactMap { $0["id"] as? String }).isDisjoint(with: page.data.compactMap { $0["id"] as? String }))
            #expect(try await api.get("/api/mobile/grades/student/\(me.grNumber)", as: student).status == 200, "a GR number names the student too")

            #expect(try await api.get("/api/mobile/grades/student/\(child.id)", as: parent).status == 200, "a guardian reads her child")
            #expect(try await api.get("/api/mobile/grades/student/\(me.id)", as: teacher).status == 200, "a teacher of 7A reads its students")
            #expect(try await api.get("/api/mobile/grades/student/\(me.id)", as: fixture.admin).status == 200)

            let foreignStudent = try await api.get("/api/mobile/grades/student/\(stranger.id)", as: student, headers: ["Accept-Language": "en"])
            #expect(foreignStudent.status == 404 && foreignStudent.code == "STUDENTS_UNKNOWN_STUDENT", "another student reads like nobody")
            let unknown = UUID().uuidString
            let nobody = try await api.get("/api/mobile/grades/student/\(unknown)", as: student, headers: ["Accept-Language": "en"])
            #expect(foreignStudent.refusal(asked: stranger.id) == nobody.refusal(asked: unknown))
            #expect(try await api.get("/api/mobile/grades/student/\(stranger.id)", as: parent).code == "STUDENTS_UNKNOWN_STUDENT", "another family's child")
            #expect(try await api.get("/api/mobile/grades/student/\(stranger.id)", as: teacher).status == 404, "not her class")
            #expect(try await api.get("/api/mobile/grades/student/\(me.id)", as: fixture.harness.user(.staff, in: fixture.base.school)).status == 403,
                    "staff do not read grades")
            let otherSchool = try await api.get("/api/mobile/grades/student/\(foreign.id)", as: fixture.admin)
            #expect(otherSchool.status == 404 && otherSchool.code == "STUDENTS_UNKNOWN_STUDENT", "another school's student does not exist here")
            #expect(try await api.get("/api/mobile/grades/student/\(me.id)", as: fixture.harness.user(.admin, in: fixture.other)).status == 404,
                    "another school's admin cannot reach this one's student")
            #expect(try await api.get("/api/mobile/grades/student/\(me.id)").status == 401)
            let badPage = try await api.get("/api/mobile/grades/student/\(me.id)?per_page=0", as: student)
            #expect(badPage.status == 400 && badPage.code == "INVALID_FIELD" && badPage.text.contains("per_page"))
        }
    }

    @Test("guardian/children/:id/grades is the same list, for the caller's own children only")
    func childResults() async throws {
        let fixture = try GradesAPIFixture()
        let parent = try fixture.account("parent@databayt.org")
        let children = try fixture.students(of: parent)
        let stranger = try fixture.student(in: "12C")
        let student = try fixture.account("student@databayt.org")
        try await fixture.harness.api { api in
            #expect(children.count == 2)
            for child in children {
                let answer = try await api.get("/api/mobile/guardian/children/\(child.id)/grades?per_page=3", as: parent)
                #expect(answer.status == 200 && answer.data.count == 3)
                #expect(Set(try #require(answer.data.first).keys) == GradesResultRoutesTests.resultKeys)
            }
            #expect(try await api.get("/api/mobile/guardian/children/\(stranger.id)/grades", as: parent).status == 404, "another family's child")
            let own = try #require(try fixture.students(of: student).first)
            #expect(try await api.get("/api/mobile/guardian/children/\(own.id)/grades", as: student).status == 403, "not a guardian")
            #expect(try await api.get("/api/mobile/guardian/children/\(own.id)/grades", as: fixture.admin).status == 403, "not a guardian")
            #expect(try await api.get("/api/mobile/guardian/children/\(try fixture.foreignStudent().id)/grades", as: parent).status == 404)
            #expect(try await api.get("/api/mobile/guardian/children/\(own.id)/grades").status == 401)
        }
    }

    @Test("grades/summary/:id checks access (the web app did not) and sums up every subject")
    func summary() async throws {
        let fixture = try GradesAPIFixture()
        let student = try fixture.account("student@databayt.org")
        let me = try #require(try fixture.students(of: student).first)
        let stranger = try fixture.student(in: "12C")
        try await fixture.harness.api { api in
            let answer = try await api.get("/api/mobile/grades/summary/\(me.id)", as: student, headers: ["Accept-Language": "en"])
            #expect(answer.status == 200)
            #expect(Set(answer.object.keys) == ["total_results", "average_percentage", "gpa", "overall_grade", "subjects"])
            let subjects = answer.object["subjects"] as? [[String: Any]] ?? []
            #expect(subjects.count == 8)
            #expect(Set(try #require(subjects.first).keys) == ["subject_name", "average_percentage", "total_results"])
            #expect(subjects.reduce(0) { $0 + ($1["total_results"] as? Int ?? 0) } == answer.object["total_results"] as? Int)
            let average = answer.object["average_percentage"] as? Double ?? -1
            #expect((0...100).contains(average) && answer.object["gpa"] as? Double != nil && answer.object["overall_grade"] as? String != nil)

            #expect(try await api.get("/api/mobile/grades/summary/\(stranger.id)", as: student).status == 404, "a classmate's summary is not mine")
            #expect(try await api.get("/api/mobile/grades/summary/\(stranger.id)", as: try fixture.account("parent@databayt.org")).status == 404)
            #expect(try await api.get("/api/mobile/grades/summary/\(stranger.id)", as: try fixture.account("teacher@databayt.org")).status == 404)
            #expect(try await api.get("/api/mobile/grades/summary/\(try fixture.foreignStudent().id)", as: fixture.admin).status == 404)
            #expect(try await api.get("/api/mobile/grades/summary/nobody", as: fixture.admin).status == 404)
            #expect(try await api.get("/api/mobile/grades/summary/\(me.id)", as: fixture.harness.user(.accountant, in: fixture.base.school)).status == 403)
            #expect(try await api.get("/api/mobile/grades/summary/\(me.id)").status == 401)
        }
    }
}

@Suite("Grades API: report cards")
struct GradesReportCardRoutesTests {
    static let cardKeys: Set<String> = ["id", "term_id", "term_name", "overall_grade", "overall_gpa", "rank", "total_students", "days_present",
                                        "days_absent", "days_late", "teacher_comments", "principal_comments", "pdf_url", "download_url",
                                        "published_at", "created_at"]

    @Test("report-cards lists the caller's published cards; report-cards/:id adds the student and flat subject lines")
    func listAndDetail() async throws {
        let fixture = try GradesAPIFixture()
        let student = try fixture.account("student@databayt.org")
        let me = try #require(try fixture.students(of: student).first)
        let terms = try fixture.base.run(ListTerms.self, .init())
        let term1 = try #require(terms.first { $0.name.en == "Term 1" })
        let term2 = try #require(terms.first { $0.name.en == "Term 2" })
        try await fixture.harness.api { api in
            let list = try await api.get("/api/mobile/report-cards", as: student, headers: ["Accept-Language": "en"])
            #expect(list.status == 200 && list.object["total"] as? Int == 1 && list.object["per_page"] as? Int == 20, "only Term 1 is published")
            let card = try #require(list.data.first)
            #expect(Set(card.keys) == Self.cardKeys)
            #expect(card["id"] as? String == "\(me.id)_\(term1.id)" && card["term_name"] as? String == "Term 1")
            #expect(card["total_students"] as? Int == 24 && (1...24).contains(card["rank"] as? Int ?? 0))
            #expect((card["days_present"] as? Int ?? 0) > 0, "attendance is on")
            #expect(card["pdf_url"] is NSNull && card["teacher_comments"] is NSNull)

            let detail = try await api.get("/api/mobile/report-cards/\(me.id)_\(term1.id)", as: student, headers: ["Accept-Language": "en"])
            #expect(detail.status == 200)
            #expect(Set(detail.object.keys) == Self.cardKeys.union(["student", "is_published", "grades"]))
            #expect(detail.object["is_published"] as? Bool == true)
            let person = detail.object["student"] as? [String: Any] ?? [:]
            #expect(Set(person.keys) == ["id", "given_name", "family_name", "section", "grade"] && person["id"] as? String == me.id)
            #expect(person["section"] as? String == "Grade 7-A")
            let lines = detail.object["grades"] as? [[String: Any]] ?? []
            #expect(lines.count == 8)
            let line = try #require(lines.first)
            #expect(Set(line.keys) == ["id", "subject_id", "subject_name", "grade", "score", "max_score", "percentage", "credits", "comments"])
            #expect(line["subject_name"] is String && line["max_score"] as? Double == 100, "subject fields are flat")

            let draft = try await api.get("/api/mobile/report-cards/\(me.id)_\(term2.id)", as: student)
            #expect(draft.status == 403 && draft.code == "GRADES_NOT_PUBLISHED", "Term 2 is a draft")
            let staffDraft = try await api.get("/api/mobile/report-cards/\(me.id)_\(term2.id)", as: fixture.admin)
            #expect(staffDraft.status == 200 && staffDraft.object["is_published"] as? Bool == false, "staff see drafts")
            #expect(try await api.get("/api/mobile/report-cards").status == 401)
        }
    }

    @Test("report cards are refused for a foreign student, another family's child and another school; a bad id is 404")
    func refusals() async throws {
        let fixture = try GradesAPIFixture()
        let parent = try fixture.account("parent@databayt.org")
        let children = try fixture.students(of: parent)
        let stranger = try fixture.student(in: "12C")
        let foreign = try fixture.foreignStudent()
        let term1 = try #require(try fixture.base.run(ListTerms.self, .init()).first { $0.name.en == "Term 1" })
        try await fixture.harness.api { api in
            let choose = try await api.get("/api/mobile/report-cards", as: parent)
            #expect(choose.status == 400 && choose.code == "STUDENTS_CHOOSE_CHILD", "a guardian of two names one")
            let child = try await api.get("/api/mobile/report-cards?student_id=\(children[0].id)", as: parent)
            #expect(child.status == 200 && child.data.count == 1)
            #expect(try await api.get("/api/mobile/report-cards?student_id=\(stranger.id)", as: parent).status == 404)
            #expect(try await api.get("/api/mobile/report-cards/\(stranger.id)_\(term1.id)", as: parent).status == 404)
            #expect(try await api.get("/api/mobile/report-cards/\(stranger.id)_\(term1.id)", as: try fixture.account("student@databayt.org")).status == 404)
            #expect(try await api.get("/api/mobile/report-cards", as: fixture.admin).code == "STUDENTS_CHOOSE_STUDENT", "staff name a student")
            #expect(try await api.get("/api/mobile/report-cards?student_id=\(foreign.id)", as: fixture.admin).status == 404)
            let foreignCard = try await api.get("/api/mobile/report-cards/\(foreign.id)_\(term1.id)", as: fixture.admin)
            #expect(foreignCard.status == 404 && foreignCard.code == "GRADES_UNKNOWN_REPORT_CARD")
            for garbage in ["nonsense", "\(stranger.id)_", "_\(term1.id)", "\(stranger.id)_\(term1.id)_x", "\(stranger.id)_nope"] {
                #expect(try await api.get("/api/mobile/report-cards/\(garbage)", as: fixture.admin).status == 404, "\(garbage)")
            }
            let bad = try await api.get("/api/mobile/report-cards?page=x", as: parent)
            #expect(bad.status == 400 && bad.code == "INVALID_FIELD")
        }
    }
}

@Suite("Grades API: a teacher's assessments and grades")
struct GradesTeacherRoutesTests {
    @Test("teacher/classes/:id/assessments lists the class's assessments with results_count and filters by status")
    func assessments() async throws {
        let fixture = try GradesAPIFixture()
        let (teacher, quiz) = try fixture.base.newAssessment()
        let upcoming = try fixture.base.run(CreateAssessment.self, .init(code: "7A-MATH-Q3", classCode: "7A", subjectCode: "MATH", term: "Term 1", kind: .quiz,
                                                                         title: "Quiz 3", date: "2026-11-25", maxMarks: 20, passingMarks: 10, category: "coursework"),
                                           as: teacher)
        let sevenA = try fixture.classID("7A")
        try await fixture.harness.api { api in
            let list = try await api.get("/api/mobile/teacher/classes/\(sevenA)/assessments", as: teacher, headers: ["Accept-Language": "en"])
            #expect(list.status == 200 && list.object["per_page"] as? Int == 30)
            #expect(list.object["total"] as? Int == 6, "the demo's four maths assessments and the two new ones: her subject only")
            let first = try #require(list.data.first)
            #expect(Set(first.keys) == ["id", "title", "description", "exam_date", "start_time", "end_time", "duration", "total_marks", "passing_marks",
                                        "exam_type", "status", "instructions", "subject_name", "results_count"])
            #expect(first["id"] as? String == upcoming.id && first["status"] as? String == "PLANNED" && first["results_count"] as? Int == 0)
            #expect(first["exam_date"] as? String == "2026-11-25T00:00:00.000Z" && first["exam_type"] as? String == "QUIZ")
            #expect(list.data.first { $0["id"] as? String == quiz.id }?["status"] as? String == "COMPLETED")
            #expect(list.data.last?["results_count"] as? Int == 24, "the demo's results, one per student")

            let planned = try await api.get("/api/mobile/teacher/classes/\(sevenA)/assessments?status=PLANNED", as: teacher)
            #expect(planned.object["total"] as? Int == 1)
            #expect(try await api.get("/api/mobile/teacher/classes/\(sevenA)/assessments?status=CANCELLED", as: teacher).data.isEmpty)
            let bad = try await api.get("/api/mobile/teacher/classes/\(sevenA)/assessments?status=SCHEDULED", as: teacher)
            #expect(bad.status == 400 && bad.code == "INVALID_FIELD" && bad.text.contains("status"), "the web app answered 500")
            let admin = try await api.get("/api/mobile/teacher/classes/\(sevenA)/assessments?per_page=100", as: fixture.admin)
            #expect(admin.object["total"] as? Int == 34, "admins see every subject's")

            let other = try await api.get("/api/mobile/teacher/classes/\(sevenA)/assessments", as: try fixture.account("teacher30@databayt.org"))
            #expect(other.status == 404 && other.code == "STUDENTS_UNKNOWN_CLASS", "another teacher's class reads like no class")
            #expect(try await api.get("/api/mobile/teacher/classes/\(sevenA)/assessments", as: try fixture.account("student@databayt.org")).status == 403)
            #expect(try await api.get("/api/mobile/teacher/classes/nope/assessments", as: fixture.admin).status == 404)
            let foreignClass = try #require(try fixture.harness.kernel.run(ListClasses.self, .init(), as: fixture.harness.user(.admin, in: fixture.other),
                                                                            in: fixture.other.id).first).id
            #expect(try await api.get("/api/mobile/teacher/classes/\(foreignClass)/assessments", as: fixture.admin).status == 404, "another school's class")
            #expect(try await api.get("/api/mobile/teacher/classes/\(sevenA)/assessments").status == 401)
        }
    }

    @Test("teacher/classes/:id/grades enters a batch by student id, with feedback, in one transaction")
    func enterGrades() async throws {
        let fixture = try GradesAPIFixture()
        let (teacher, quiz) = try fixture.base.newAssessment()
        let sevenA = try fixture.classID("7A")
        let pupils = try fixture.base.run(ListStudents.self, .init(classCode: "7A")).students
        let outsider = try fixture.student(in: "8A")
        let otherClassQuiz = try fixture.base.run(ListAssessments.self, .init(classCode: "7B")).first
        let path = "/api/mobile/teacher/classes/\(sevenA)/grades"
        try await fixture.harness.api { api in
            let refused = try await api.post(path, as: teacher, json: ["exam_id": quiz.id, "results": [
                ["student_id": pupils[0].id, "score": 25], ["student_id": outsider.id, "score": 10], ["student_id": pupils[1].id, "score": 12],
            ]], headers: ["Accept-Language": "en"])
            #expect(refused.status == 400 && refused.code == "GRADES_INVALID_RESULTS")
            let details = refused.object["details"] as? [[String: Any]] ?? []
            #expect(details.compactMap { $0["field"] as? String } == ["results[0]", "results[1]"], "a detail per bad row: over the maximum, not in 7A")
            let untouched = try await api.get("/api/mobile/grades/student/\(pupils[1].id)", as: fixture.admin)
            #expect(!untouched.data.contains { $0["id"] as? String == quiz.id }, "nothing was written")

            let entered = try await api.post(path, as: teacher, json: ["exam_id": quiz.id, "results": [
                ["student_id": pupils[0].id, "score": 18.5, "feedback": "Well done"], ["student_id": pupils[1].id, "score": 9],
            ]])
            #expect(entered.status == 200 && entered.object["count"] as? Int == 2)
            let results = try await api.get("/api/mobile/grades/student/\(pupils[0].id)", as: fixture.admin)
            let row = try #require(results.data.first { $0["id"] as? String == quiz.id })
            #expect(row["score"] as? Double == 18.5 && row["max_score"] as? Double == 20 && row["percentage"] as? Double == 92.5)
            #expect(row["feedback"] as? String == "Well done" && row["grade"] as? String == "A")
            let again = try await api.post(path, as: teacher, json: ["exam_id": quiz.id, "results": [["student_id": pupils[0].id, "score": 18.5]]])
            #expect(again.object["count"] as? Int == 1)
            let kept = try await api.get("/api/mobile/grades/student/\(pupils[0].id)", as: fixture.admin)
            #expect(kept.data.first { $0["id"] as? String == quiz.id }?["feedback"] as? String == "Well done", "no feedback keeps the note")

            let unknown = try await api.post(path, as: teacher, json: ["exam_id": "nope", "results": [["student_id": pupils[0].id, "score": 1]]])
            #expect(unknown.status == 404 && unknown.code == "GRADES_UNKNOWN_ASSESSMENT")
            if let otherClassQuiz {
                let elsewhere = try await api.post(path, as: fixture.admin, json: ["exam_id": otherClassQuiz.id, "results": [["student_id": pupils[0].id, "score": 1]]])
                #expect(elsewhere.status == 404, "an assessment of another class is unknown here")
            }
            let other = try await api.post(path, as: try fixture.account("teacher30@databayt.org"),
                                           json: ["exam_id": quiz.id, "results": [["student_id": pupils[0].id, "score": 1]]])
            #expect(other.status == 404 && other.code == "GRADES_UNKNOWN_ASSESSMENT", "another teacher's class: its assessment is not there")
            #expect(try await api.post(path, as: try fixture.account("student@databayt.org"), json: ["exam_id": quiz.id, "results": []]).status == 403)
            let missing = try await api.post(path, as: teacher, json: ["results": []])
            #expect(missing.status == 400 && missing.code == "INVALID_FIELD" && missing.text.contains("exam_id"))
            let empty = try await api.post(path, as: teacher, json: ["exam_id": quiz.id, "results": []])
            #expect(empty.status == 400 && empty.code == "GRADES_NO_RESULTS")
            let wrongType = try await api.post(path, as: teacher, json: ["exam_id": quiz.id, "results": [["student_id": pupils[0].id, "score": "ten"]]])
            #expect(wrongType.status == 400 && wrongType.text.contains("results[0].score"))
            #expect(try await api.request(.post, path, as: teacher, raw: "{not json").code == "MALFORMED_JSON")
            #expect(try await api.post(path, json: ["exam_id": quiz.id, "results": []]).status == 401)
        }
    }

    @Test("the dashboard's upcoming_exams counts a student's class's coming assessments; admin stats the school's")
    func dashboard() async throws {
        let fixture = try GradesAPIFixture()
        let (teacher, _) = try fixture.base.newAssessment()
        try fixture.base.run(CreateAssessment.self, .init(code: "7A-MATH-Q3", classCode: "7A", subjectCode: "MATH", term: "Term 1", kind: .quiz,
                                                          title: "Quiz 3", date: "2026-11-25", maxMarks: 20, passingMarks: 10, category: "coursework"), as: teacher)
        try await fixture.harness.api { api in
            let student = try await api.get("/api/mobile/dashboard", as: try fixture.account("student@databayt.org"))
            #expect(student.status == 200 && student.object["upcoming_exams"] as? Int == 1)
            #expect(try await api.get("/api/mobile/dashboard", as: teacher).object["upcoming_exams"] == nil, "not a teacher's field")
            let stats = try await api.get("/api/mobile/admin/stats", as: fixture.admin)
            #expect(stats.status == 200 && stats.object["upcoming_exams"] as? Int == 1)
        }
    }
}
