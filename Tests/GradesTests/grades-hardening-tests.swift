import Auth
import Core
import Foundation
@testable import Grades
import HogwartsTestSupport
import PropertyBased
import Students
import Testing

@Suite("Grades: who grades (issue 11)")
struct GradingRightsTests {
    /// teacher@databayt.org is 7A's homeroom teacher and teaches it MATH only (ENG and ARAB are
    /// other teachers'), as in the demo school.
    private func homeroomTeacher(_ fixture: GradesFixture) throws -> Principal { try fixture.account("teacher@databayt.org") }

    private func assessment(_ fixture: GradesFixture, _ code: String, subject: String, as principal: Principal) throws -> Assessment {
        try fixture.run(CreateAssessment.self, .init(code: code, classCode: "7A", subjectCode: subject, term: "Term 1", kind: .quiz, title: "Quiz",
                                                     date: "2026-11-20", maxMarks: 20, passingMarks: 10, category: "coursework"), as: principal)
    }

    @Test("a homeroom teacher may not add assessments or enter results in subjects of her class she does not teach")
    func homeroomIsNotGrading() throws {
        let fixture = try GradesFixture()
        let teacher = try homeroomTeacher(fixture)
        for subject in ["ENG", "ARAB"] {
            #expect(throws: GradesError.notYourSubject(classCode: "7A", subjectCode: subject)) { try assessment(fixture, "7A-\(subject)-X", subject: subject, as: teacher) }
            let existing = try #require(try fixture.run(ListAssessments.self, .init(classCode: "7A", subjectCode: subject)).first)
            #expect(throws: GradesError.notYourSubject(classCode: "7A", subjectCode: subject)) {
                try fixture.run(EnterResults.self, .init(assessment: existing.code, lines: [ResultLine(student: "1", result: "1")]), as: teacher)
            }
        }
        #expect(try fixture.run(ListAssessments.self, .init(classCode: "7A", subjectCode: "ENG")).allSatisfy { $0.code != "7A-ENG-X" }, "nothing was written")
        // Her own subject, and an admin in any subject, may.
        let maths = try assessment(fixture, "7A-MATH-X", subject: "MATH", as: teacher)
        #expect(try fixture.run(EnterResults.self, .init(assessment: maths.code, lines: [ResultLine(student: "1", result: "15")]), as: teacher).entered == 1)
        _ = try assessment(fixture, "7A-ENG-Y", subject: "ENG", as: fixture.admin)
    }

    @Test("reads stay wider than writes: the homeroom teacher reads her class's results in every subject, and lists only her classes' assessments")
    func homeroomReads() throws {
        let fixture = try GradesFixture()
        let teacher = try homeroomTeacher(fixture)
        let pupil = try #require(try fixture.run(ListStudents.self, .init(classCode: "7A")).students.first)
        let subjects = Set(try fixture.run(StudentResults.self, .init(grNumber: pupil.grNumber), as: teacher).map(\.subjectCode))
        #expect(subjects.isSuperset(of: ["ENG", "ARAB", "MATH"]))
        let listed = try fixture.run(ListAssessments.self, .init(), as: teacher)
        #expect(listed.contains { $0.classCode == "7A" && $0.subjectCode == "ENG" }, "her homeroom class")
        #expect(!listed.contains { $0.classCode == "12C" }, "not a class she neither teaches nor leads")
        #expect(try fixture.run(ListAssessments.self, .init()).count > listed.count)
    }
}

@Suite("Grades: the student by default (issue 11)")
struct DefaultStudentTests {
    @Test("a student's own results and report card need no GR number; a guardian of several children is asked to choose; staff must name one")
    func defaults() throws {
        let fixture = try GradesFixture()
        let student = try fixture.account("student@databayt.org")
        let me = try #require(try fixture.run(ListStudents.self, .init(), as: student).students.first)
        let mine = try fixture.run(StudentResults.self, .init(), as: student)
        let named = try fixture.run(StudentResults.self, .init(grNumber: me.grNumber), as: student)
        #expect(!mine.isEmpty && mine == named)
        // Term 1's report cards are published in the demo.
        #expect(try fixture.run(ReportCard.self, .init(term: "Term 1"), as: student).grNumber == me.grNumber)
        #expect(try fixture.run(GradeHistory.self, .init(subjectCode: "MATH"), as: student).isEmpty == false)
        let parent = try fixture.account("parent@databayt.org")
        let error = #expect(throws: StudentsError.self) { try fixture.run(StudentResults.self, .init(), as: parent) }
        guard case .chooseChild(let children) = error else { Issue.record("expected the children listed"); return }
        #expect(children.count == 2)
        #expect(throws: StudentsError.chooseStudent) { try fixture.run(ReportCard.self, .init(term: "Term 1")) }
        #expect(throws: StudentsError.chooseStudent) { try fixture.run(StudentResults.self, .init(), as: try fixture.account("teacher@databayt.org")) }
    }
}

@Suite("Grades: numbers and text (issue 11)")
struct GradesInputTests {
    @Test("maximum marks of NaN, infinity or below zero are refused and nothing is written", arguments: [Double.nan, .infinity, -5, 0, 1001])
    func badMaximum(max: Double) throws {
        let fixture = try GradesFixture(withAttendance: false)
        let before = try fixture.run(ListAssessments.self, .init()).count
        let error = #expect(throws: (any Error).self) {
            try fixture.run(CreateAssessment.self, .init(code: "BAD", classCode: "7A", subjectCode: "MATH", term: "Term 1", kind: .quiz, title: "Quiz",
                                                         date: "2026-11-20", maxMarks: max, passingMarks: 0, category: "coursework"))
        }
        // A finite bad maximum is the action's refusal; NaN and infinity cannot even be encoded
        // as the kernel's input fingerprint (the CLI refuses them before, naming --max).
        if max.isFinite { #expect(error is GradesError) }
        #expect(try fixture.run(ListAssessments.self, .init()).count == before)
    }

    @Test("weights: NaN, hexadecimal, exponents and a category named twice are refused by the command and by the action")
    func weights() throws {
        for text in ["exams=nan", "exams=inf", "exams=0x10", "exams=1e2", "exams=-5", "exams=60,exams=40", "=60", "exams", "exams=60=1"] {
            #expect(throws: GradesError.self, "\(text)") { try GradesCommand.Weights.parse(text) }
        }
        #expect(try GradesCommand.Weights.parse("exams=60, coursework=40.5") == ["exams": 60, "coursework": 40.5])
        let fixture = try GradesFixture(withAttendance: false)
        #expect(throws: GradesError.invalidWeights("exams=-5")) { try fixture.run(SetWeights.self, .init(weights: ["exams": -5])) }
        #expect(throws: (any Error).self) { try fixture.run(SetWeights.self, .init(weights: ["exams": .nan])) }
    }

    @Test("a score of 0x10, nan or 1e1 is not a number here: reported with a reason, nothing written")
    func strictScores() throws {
        let fixture = try GradesFixture(withAttendance: false)
        let (teacher, assessment) = try fixture.newAssessment()
        let error = #expect(throws: GradesError.self) {
            try fixture.run(EnterResults.self, .init(assessment: assessment.code, lines: [
                ResultLine(student: "1", result: "0x10"), ResultLine(student: "2", result: "nan"), ResultLine(student: "3", result: "1e1"),
            ]), as: teacher)
        }
        guard case .invalidResults(let problems) = error else { Issue.record("expected the problems"); return }
        #expect(problems.map(\.row) == [1, 2, 3] && problems[0].reason.contains("0x10"))
    }

    @Test("an assessment title of 10,000 characters or with a NUL is refused, naming the field")
    func titles() throws {
        let fixture = try GradesFixture(withAttendance: false)
        func create(_ title: String) throws {
            try fixture.run(CreateAssessment.self, .init(code: "T1", classCode: "7A", subjectCode: "MATH", term: "Term 1", kind: .quiz, title: title,
                                                         date: "2026-11-20", maxMarks: 20, passingMarks: 10, category: "coursework"))
        }
        #expect(throws: InputError("kernel.error.text-too-long", ["field": "title", "max": "200"])) { try create(String(repeating: "x", count: 10_000)) }
        #expect(throws: InputError("kernel.error.text-control", ["field": "title", "max": "200"])) { try create("Al\0i") }
        #expect(throws: InputError("kernel.error.text-control", ["field": "reason", "max": "200"])) {
            let gr = try #require(try fixture.run(ListStudents.self, .init(classCode: "7A")).students.first).grNumber
            try fixture.run(OverrideGrade.self, .init(grNumber: gr, term: "Term 1", subjectCode: "MATH", letter: "A", reason: "ok\u{1B}[2J"))
        }
    }

    @Test("a scale's numbers are plain decimals: no nan, hex, exponent or sign hidden by the range dash")
    func scaleNumbers() {
        for text in ["A:90:nan,F:0:0", "A:0x5A:4,F:0:0", "A:9e1:4,F:0:0", "A:90:4,B:-5:3,F:0:0", "A:90:inf,F:0:0"] {
            #expect(throws: GradesError.self, "\(text)") { try GradeScale.parse(name: "x", text) }
        }
        #expect(throws: GradesError.scalePoints("A:90:40")) { try GradeScale.parse(name: "x", "A:90:40,F:0:0") }
    }
}

@Suite("Grades: percentages beside letters (issue 11)")
struct PercentTextTests {
    @Test("79.99 on an A-from-80 scale reads 79.99%, never 80.0% beside a B")
    func decimalsExplainTheLetter() throws {
        let scale = try GradeScale.parse(name: "eighty", "A:80:4,B:70:3,F:0:0")
        #expect(scale.band(for: 79.99).letter == "B")
        #expect(scale.percentText(79.99) == "79.99%")
        #expect(scale.percentText(85) == "85.0%" && scale.percentText(80) == "80.0%")
        #expect(scale.percentText(79.99999) == "79.9999%", "cut, not rounded up across the bound")
        #expect(GradeScale.standard.percentText(89.999) == "89.999%" && GradeScale.standard.percentText(90) == "90.0%")
    }
}

@Suite("Grades: generated input (issue 11)")
struct GradesPropertyTests {
    static let bandPieces = ["A:90:4.0", "B:80:3", "C:70-80:2", "F:0:0", "F:0-60:0", "D:60:1:fail", "A+:95:4.0", "A:90:nan", "B:0x50:3", "C:-5:2",
                             "E:1e2:1", "X:50:inf", "F:0:0:pass", "::", "A:90", "Z:100:4", "G:٥٠:1", "\0:10:1", "A:90:4.0:fail:x", " B : 80 : 3 ", "P:50:1.0"]

    @Test("the scale parser never crashes; a refusal has a reason in both languages; a refused scale changes nothing")
    func scaleParser() async throws {
        let fixture = try GradesFixture(withAttendance: false)
        let catalog = GradesModule().strings
        let pieces = Gen.element(of: Self.bandPieces).map { $0 ?? "" }.array(of: 0...6).map { $0.joined(separator: ",") }
        let noise = Gen.element(of: Array("0123456789.:-+,ABFx nafi\u{0}\u{1B}٣")).map { $0 ?? "0" }.string(of: 0...24)
        await propertyCheck(count: 150, input: Gen.oneOf(pieces, noise)) { text in
            let before = try fixture.run(ShowScale.self, .init())
            do {
                let scale = try GradeScale.parse(name: "generated", text)
                #expect(scale.band(for: 0).lowerBound == 0 && (0...100).allSatisfy { scale.bands.contains(scale.band(for: Double($0))) })
                #expect(try GradeScale.parse(name: "generated", scale.text) == scale, "its text reads back")
            } catch let error as GradesError {
                #expect(catalog.text(error.messageKey, in: .en) != nil && catalog.text(error.messageKey, in: .ar) != nil, "\(error)")
                #expect(throws: GradesError.self) { try fixture.run(SetScale.self, .init(name: "generated", bands: text)) }
                #expect(try fixture.run(ShowScale.self, .init()) == before, "nothing written")
            }
        }
    }

    @Test("score parsing never crashes; a score is taken only if it is a plain number in range; a refused batch writes nothing")
    func scores() async throws {
        let fixture = try GradesFixture(withAttendance: false)
        let (teacher, assessment) = try fixture.newAssessment()
        let first = try #require(try fixture.run(ListStudents.self, .init(classCode: "7A", sort: .name)).students.first).grNumber
        func stored() throws -> AssessmentResult? { try fixture.run(StudentResults.self, .init(grNumber: first)).first { $0.assessment == assessment.code } }
        let text = Gen.element(of: Array("0123456789.-+ex nafibst\u{0}٣,")).map { $0 ?? "0" }.string(of: 0...10)
        await propertyCheck(count: 150, input: text) { result in
            let before = try stored()
            do {
                _ = try fixture.run(EnterResults.self, .init(assessment: assessment.code, lines: [ResultLine(student: "1", result: result)]), as: teacher)
                let word = result.trimmingCharacters(in: .whitespaces).lowercased()
                let number = StrictNumber.decimal(word)
                #expect(["a", "absent", "x", "exempt"].contains(word) || number.map { (0...assessment.maxMarks).contains($0) } == true, "took \(result)")
                if let number { #expect(try stored()?.score == number) }
            } catch GradesError.invalidResults(let problems) {
                #expect(problems.count == 1 && problems.allSatisfy { !$0.reason.isEmpty })
                #expect(try stored() == before, "nothing written for \(result)")
            }
        }
    }
}

