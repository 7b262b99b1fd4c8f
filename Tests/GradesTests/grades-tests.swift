import Attendance
import Auth
import Core
import Foundation
import Grades
import HogwartsTestSupport
import Students
import Testing

@Suite("Grade scales")
struct ScaleTests {
    @Test("every percentage from 0 to 100, decimals included, maps to exactly one letter")
    func coverage() {
        let scale = GradeScale.standard
        #expect(scale.band(for: 94.5).letter == "A", "the web app turned 94.5 into F")
        #expect(scale.band(for: 92.5).letter == "A")
        #expect(scale.band(for: 89.99).letter == "B+")
        #expect(scale.band(for: 60).letter == "D" && scale.band(for: 59.99).letter == "F")
        #expect(scale.band(for: 100).letter == "A+" && scale.band(for: 0).letter == "F")
        let ranges = scale.bands.map { band in (band, scale.bands.filter { $0.lowerBound > band.lowerBound }.map(\.lowerBound).min() ?? 100.0001) }
        var uncovered: [Double] = []
        for hundredth in 0...10_000 {
            let value = Double(hundredth) / 100
            let matches = ranges.filter { value >= $0.0.lowerBound && value < $0.1 }
            if matches.count != 1 || matches.first?.0 != scale.band(for: value) { uncovered.append(value) }
        }
        #expect(uncovered.isEmpty, "percentages without exactly one letter: \(uncovered.prefix(5))")
    }

    @Test("a scale with a gap, an overlap, a repeated letter or no floor is refused, naming the problem", arguments: [
        ("A:90:4,B:80-89:3,F:0:0", GradesError.scaleGap(from: 89, to: 90)),
        ("A:90:4,B:80-95:3,F:0:0", GradesError.scaleOverlap("B", "A")),
        ("A:90:4,B:90:3,F:0:0", GradesError.scaleOverlap("A", "B")),
        ("A:90:4,B:80:3", GradesError.scaleGap(from: 0, to: 80)),
        ("A:90:4,A:80:3,F:0:0", GradesError.scaleDuplicateLetter("A")),
        ("A:90:4,B:eighty:3,F:0:0", GradesError.scaleMalformed("B:eighty:3")),
        ("A:190:4,F:0:0", GradesError.scaleOutOfRange("A:190:4")),
    ])
    func refused(text: String, error: GradesError) {
        #expect(throws: error) { try GradeScale.parse(name: "bad", text) }
    }

    @Test("a valid scale with explicit ranges parses, and its text reads back the same")
    func roundTrip() throws {
        let scale = try GradeScale.parse(name: "four", "A:85-100:4.0,B:70-85:3.0,C:50-70:2.0,D:40-50:1.0:fail,F:0-40:0")
        #expect(scale.band(for: 84.99).letter == "B" && scale.band(for: 45).passing == false && scale.band(for: 50).passing)
        #expect(try GradeScale.parse(name: "four", scale.text) == scale)
        #expect(try GradeScale.parse(name: "standard", GradeScale.standard.text) == GradeScale.standard)
    }
}

@Suite("Term marks, GPA and rank")
struct ComputationTests {
    typealias Mark = TermMarks.Mark

    @Test("without weights: total score over total maximum; ABSENT counts 0, EXEMPT is left out")
    func unweighted() {
        let marks = [Mark(category: "c", score: 15, maxMarks: 20, state: .scored), Mark(category: "e", score: 60, maxMarks: 100, state: .scored),
                     Mark(category: "e", score: nil, maxMarks: 50, state: .exempt)]
        #expect(TermMarks.percentage(marks, weights: [:]) == 62.5)
        let absent = marks + [Mark(category: "c", score: nil, maxMarks: 30, state: .absent)]
        #expect(TermMarks.percentage(absent, weights: [:]) == 50)
        #expect(TermMarks.percentage([Mark(category: "c", score: nil, maxMarks: 10, state: .exempt)], weights: [:]) == nil)
    }

    @Test("with weights: each category's own percentage, weighted; missing categories renormalize")
    func weighted() {
        let marks = [Mark(category: "coursework", score: 45, maxMarks: 50, state: .scored), Mark(category: "exams", score: 60, maxMarks: 100, state: .scored)]
        let weights = ["exams": 60.0, "coursework": 40.0]
        #expect(abs((TermMarks.percentage(marks, weights: weights) ?? 0) - 72) < 0.0001, "0.6 x 60 + 0.4 x 90")
        #expect(TermMarks.percentage([marks[0]], weights: weights) == 90, "no exam yet: coursework alone")
    }

    @Test("GPA is credit-weighted; a subject without credits counts as 1")
    func gpa() {
        #expect(TermMarks.gpa([(4.0, 4), (2.0, 2)]) == 20.0 / 6)
        #expect(TermMarks.gpa([(3.0, 0), (1.0, 1)]) == 2.0)
        #expect(TermMarks.gpa([]) == nil)
    }

    @Test("ties share a rank and the next rank skips")
    func ranks() {
        #expect(TermMarks.ranks(["a": 3.5, "b": 3.0, "c": 3.0, "d": 2.0]) == ["a": 1, "b": 2, "c": 2, "d": 4])
    }
}

/// The demo school (with attendance) on 22 November 2026.
struct GradesFixture {
    let harness: TestHarness
    let school: School

    init(withAttendance: Bool = true) throws {
        let moment = (try? Date.ISO8601FormatStyle().parse("2026-11-22T06:00:00Z")) ?? Date()
        let modules: [any AppModule] = [AuthModule(), StudentsModule(), GradesModule()] + (withAttendance ? [AttendanceModule()] : [])
        let (harness, schools) = try TestHarness.withDemo(modules: modules, clock: { moment })
        self.harness = harness
        school = schools[0]
    }

    var admin: Principal { harness.user(.admin, in: school) }

    func account(_ email: String) throws -> Principal {
        let result = try harness.kernel.run(SignIn.self, .init(email: email, password: AuthDemo.password), as: .anonymous, in: school.id)
        guard let user = result.user else { throw AuthError.signInRefused }
        return Principal(userID: user.id, role: user.role, schoolID: school.id, displayName: user.displayName)
    }

    @discardableResult
    func run<A: Action>(_ action: A.Type, _ input: A.Input, as principal: Principal? = nil) throws -> A.Output {
        try harness.kernel.run(action, input, as: principal ?? admin, in: school.id)
    }

    /// A fresh assessment in 7A mathematics, created by its teacher (teacher29, given the subject here).
    func newAssessment(_ code: String = "7A-MATH-Q2", max: Double = 20) throws -> (Principal, Assessment) {
        try run(AssignTeacher.self, .init(teacherEmail: "teacher29@databayt.org", classCode: "7A", subjectCode: "MATH"))
        let teacher = try account("teacher29@databayt.org")
        let assessment = try run(CreateAssessment.self, .init(code: code, classCode: "7A", subjectCode: "MATH", term: "Term 1", kind: .quiz,
                                                              title: "Quiz 2", date: "2026-11-20", maxMarks: max, passingMarks: max / 2, category: "coursework"), as: teacher)
        return (teacher, assessment)
    }
}

@Suite("Grades: entering results")
struct EnteringTests {
    @Test("every string exists in Arabic and English")
    func strings() {
        #expect(GradesModule().strings.text("grades.module.name", in: .ar) != nil)
        #expect(GradesModule().strings.missingTranslations.isEmpty)
    }

    @Test("a batch with bad rows reports every one (row, student, reason) and writes nothing")
    func badBatch() throws {
        let fixture = try GradesFixture()
        let (teacher, assessment) = try fixture.newAssessment()
        let outsider = try #require(try fixture.run(ListStudents.self, .init(classCode: "8A")).students.first).grNumber
        let error = #expect(throws: GradesError.self) {
            try fixture.run(EnterResults.self, .init(assessment: assessment.code, lines: [
                ResultLine(student: "1", result: "18.5"), ResultLine(student: outsider, result: "10"), ResultLine(student: "2", result: "25"),
                ResultLine(student: "3", result: "lots"), ResultLine(student: "1", result: "12"), ResultLine(student: "4", result: "absent"),
            ]), as: teacher)
        }
        guard case .invalidResults(let problems) = error else { Issue.record("expected the list of problems"); return }
        #expect(problems.map(\.row) == [2, 3, 4, 5])
        #expect(problems[0].student == outsider && problems[0].reason.contains("7A"))
        #expect(problems[1].reason.contains("20"))
        let results = try fixture.run(StudentResults.self, .init(grNumber: try #require(try fixture.run(ListStudents.self, .init(classCode: "7A", sort: .name)).students.first).grNumber))
        #expect(!results.contains { $0.assessment == assessment.code }, "nothing was written")
    }

    @Test("decimal scores, absent and exempt are accepted; entering again updates and keeps the old result")
    func enterAndUpdate() throws {
        let fixture = try GradesFixture()
        let (teacher, assessment) = try fixture.newAssessment()
        let first = try fixture.run(EnterResults.self, .init(assessment: assessment.code, lines: [
            ResultLine(student: "1", result: "18.5"), ResultLine(student: "2", result: "absent"), ResultLine(student: "3", result: "exempt"),
        ]), as: teacher)
        #expect(first.entered == 3 && first.changed == 0)
        let again = try fixture.run(EnterResults.self, .init(assessment: assessment.code, lines: [ResultLine(student: "1", result: "19"), ResultLine(student: "2", result: "absent")]), as: teacher)
        #expect(again.changed == 1)
    }

    @Test("only the class's subject teacher (or an admin) enters results; students never")
    func permissions() throws {
        let fixture = try GradesFixture()
        let (_, assessment) = try fixture.newAssessment()
        let other = try fixture.account("teacher30@databayt.org")
        #expect(throws: GradesError.self) { try fixture.run(EnterResults.self, .init(assessment: assessment.code, lines: [ResultLine(student: "1", result: "5")]), as: other) }
        let student = try fixture.account("student@databayt.org")
        #expect(throws: KernelError.permissionDenied(permission: "grades.enter", role: .student)) {
            try fixture.run(EnterResults.self, .init(assessment: assessment.code, lines: []), as: student)
        }
        try fixture.run(EnterResults.self, .init(assessment: assessment.code, lines: [ResultLine(student: "1", result: "5")]))
    }
}

@Suite("Grades: report cards")
struct ReportCardTests {
    @Test("a report card has every subject, a GPA, a rank in the class and the term's attendance")
    func card() throws {
        let fixture = try GradesFixture()
        let gr = try #require(try fixture.run(ListStudents.self, .init(classCode: "7A")).students.first).grNumber
        let card = try fixture.run(ReportCard.self, .init(grNumber: gr, term: "Term 1"))
        #expect(card.record.subjects.count == 8)
        #expect(card.record.subjects.allSatisfy { $0.letter != nil && $0.passed != nil })
        #expect(card.classSize == 24 && (1...24).contains(card.rank ?? 0))
        #expect(card.attendance?.present ?? 0 > 0)
        let points = card.record.subjects.compactMap { s in s.points.map { ($0, s.credits) } }
        #expect(card.record.gpa == TermMarks.gpa(points))
        #expect(try GradesFixture(withAttendance: false).run(ReportCard.self, .init(grNumber: gr, term: "Term 1")).attendance == nil)
    }

    @Test("drafts are hidden from students and guardians until an admin publishes them")
    func publishing() throws {
        let fixture = try GradesFixture()
        let term2 = "Term 2"
        let student = try fixture.account("student@databayt.org")
        let gr = try #require(try fixture.run(ListStudents.self, .init(), as: student).students.first).grNumber
        #expect(throws: GradesError.notPublished("Term 2")) { try fixture.run(ReportCard.self, .init(grNumber: gr, term: term2), as: student) }
        #expect(try fixture.run(ReportCard.self, .init(grNumber: gr, term: term2)).published == false, "staff see the draft")
        try fixture.run(PublishReportCards.self, .init(term: term2))
        #expect(try fixture.run(ReportCard.self, .init(grNumber: gr, term: term2), as: student).published)
        #expect(throws: InputError.self) { try fixture.run(PublishReportCards.self, .init(term: term2)) }
        #expect(throws: KernelError.permissionDenied(permission: "grades.manage", role: .teacher)) {
            try fixture.run(PublishReportCards.self, .init(term: "Term 1"), as: try fixture.account("teacher@databayt.org"))
        }
    }

    @Test("an admin's override replaces the letter, shows its reason, moves the GPA, and is audited")
    func override() throws {
        let fixture = try GradesFixture()
        let gr = try #require(try fixture.run(ListStudents.self, .init(classCode: "7A")).students.first).grNumber
        let before = try fixture.run(ReportCard.self, .init(grNumber: gr, term: "Term 1"))
        try fixture.run(OverrideGrade.self, .init(grNumber: gr, term: "Term 1", subjectCode: "MATH", letter: "A+", reason: "Re-sat the exam"))
        let after = try fixture.run(ReportCard.self, .init(grNumber: gr, term: "Term 1"))
        let maths = try #require(after.record.subjects.first { $0.subjectCode == "MATH" })
        #expect(maths.letter == "A+" && maths.overrideReason == "Re-sat the exam")
        #expect((after.record.gpa ?? 0) >= (before.record.gpa ?? 0))
        #expect(try fixture.harness.kernel.auditLog(for: fixture.school.id).first?.detail?.contains("Re-sat the exam") == true)
        #expect(throws: InputError("grades.error.unknown-letter", ["letter": "Z"])) {
            try fixture.run(OverrideGrade.self, .init(grNumber: gr, term: "Term 1", subjectCode: "MATH", letter: "Z", reason: "x"))
        }
    }

    @Test("students see their own results, guardians their children's, nobody else's")
    func visibility() throws {
        let fixture = try GradesFixture()
        let parent = try fixture.account("parent@databayt.org")
        let children = try fixture.run(ListStudents.self, .init(), as: parent).students
        for child in children { #expect(!(try fixture.run(StudentResults.self, .init(grNumber: child.grNumber), as: parent)).isEmpty) }
        let stranger = try #require(try fixture.run(ListStudents.self, .init(classCode: "12C")).students.first).grNumber
        #expect(throws: StudentsError.unknownStudent(stranger)) { try fixture.run(StudentResults.self, .init(grNumber: stranger), as: parent) }
        #expect(throws: StudentsError.unknownStudent(stranger)) { try fixture.run(StudentResults.self, .init(grNumber: stranger), as: try fixture.account("student@databayt.org")) }
    }

    @Test("the whole-school run agrees with each student's own report card")
    func wholeSchool() throws {
        let fixture = try GradesFixture(withAttendance: false)
        let lines = try fixture.run(SchoolReportCards.self, .init(term: "Term 1"))
        #expect(lines.count >= 400)
        for line in lines.filter({ $0.classCode == "9B" }) {
            let card = try fixture.run(ReportCard.self, .init(grNumber: line.grNumber, term: "Term 1"))
            #expect(card.record.gpa == line.gpa && card.rank == line.rank)
        }
    }

    @Test("a new scale changes the letters on existing report cards")
    func scaleChange() throws {
        let fixture = try GradesFixture()
        try fixture.run(SetScale.self, .init(name: "pass-fail", bands: "P:50:1.0,F:0:0"))
        let gr = try #require(try fixture.run(ListStudents.self, .init(classCode: "7A")).students.first).grNumber
        let card = try fixture.run(ReportCard.self, .init(grNumber: gr, term: "Term 1"))
        #expect(card.record.subjects.allSatisfy { ["P", "F"].contains($0.letter ?? "") })
        #expect(try fixture.run(ShowScale.self, .init()).name == "pass-fail")
    }
}
