import Foundation
import Testing

@Suite("Grades commands with --json, bad numbers and grading rights (issue 11)", .waitsOnProcesses, .commandLineShape)
struct HostGradesJSONTests {
    @Test("assessments, results, report cards, history, the scale and weights print snake_case JSON; a student needs no --student")
    func gradesFamily() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo"]).status == 0)
        #expect(try hogwarts.login("admin@databayt.org", school: "demo").status == 0)
        let gr = try PlatformJSON.firstStudent(of: "7A", hogwarts)
        for command in [["grades", "assessments", "--class", "7A"], ["grades", "results", "--student", gr], ["grades", "report-card", "--student", gr, "--term", "Term 1"],
                        ["grades", "history", "--student", gr, "--subject", "MATH"], ["grades", "scale", "show"], ["grades", "weights", "exams=60,coursework=40"]] {
            try PlatformJSON.run(hogwarts, command)
        }
        #expect(try hogwarts.login("student@databayt.org").status == 0)
        for command in [["grades", "results"], ["grades", "report-card", "--term", "Term 1"], ["grades", "history", "--subject", "MATH"]] {
            let document = try PlatformJSON.run(hogwarts, command)
            #expect(document != nil, "\(command) without --student")
        }
        #expect(try hogwarts.login("parent@databayt.org", school: "demo").status == 0)
        let several = try hogwarts.run(["grades", "results", "--lang", "en"])
        #expect(several.status == 64 && several.stderr.contains("several children") && several.stderr.contains("GR-"), "\(several.stderr)")
    }

    @Test("nan, inf, -5, 0x10 and a malformed scale get a message naming the field, and nothing is written")
    func badNumbers() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo"]).status == 0)
        #expect(try hogwarts.login("admin@databayt.org", school: "demo").status == 0)
        let before = try hogwarts.run(["grades", "assessments", "--json"]).stdout
        let add = ["grades", "add-assessment", "7A-MATH-Q9", "--class", "7A", "--subject", "MATH", "--term", "Term 1", "--kind", "QUIZ", "--title", "Quiz 9",
                   "--date", "2026-11-20", "--lang", "en"]
        for (max, pass, option) in [("nan", "10", "--max"), ("inf", "10", "--max"), ("-5", "1", "--max"), ("1e2", "10", "--max"), ("20", "30", "--pass")] {
            let refused = try hogwarts.run(add + ["--max", max, "--pass", pass])
            #expect(refused.status == 64 && refused.stderr.contains(option) && !refused.stderr.contains("Error"), "\(max)/\(pass): \(refused.stderr)")
        }
        let weights = try hogwarts.run(["grades", "weights", "exams=nan", "--lang", "en"])
        #expect(weights.status == 65 && weights.stderr.contains("exams=nan") && !weights.stderr.contains("EncodingError"), "\(weights.stderr)")
        let scale = try hogwarts.run(["grades", "scale", "set", "--name", "x", "--bands", "A:90:nan,F:0:0", "--lang", "en"])
        #expect(scale.status == 65 && scale.stderr.contains("A:90:nan"), "\(scale.stderr)")
        #expect(try hogwarts.run(["grades", "assessments", "--json"]).stdout == before, "nothing was written")

        #expect(try hogwarts.run(add + ["--max", "20", "--pass", "10"]).status == 0)
        let hex = try hogwarts.run(["grades", "enter", "--assessment", "7A-MATH-Q9", "--scores", "1=0x10", "--lang", "en"])
        #expect(hex.status == 65 && hex.stdout.contains("0x10"), "\(hex.stdout)")
        let title = try hogwarts.run(["grades", "add-assessment", "7A-MATH-Q10", "--class", "7A", "--subject", "MATH", "--term", "Term 1", "--kind", "QUIZ",
                                      "--title", String(repeating: "t", count: 10_000), "--date", "2026-11-20", "--max", "20", "--pass", "10", "--lang", "en"])
        #expect(title.status == 65 && title.stderr.contains("title is longer than"), "\(title.stderr)")
    }

    @Test("7A's homeroom teacher is refused ENG and ARAB, which she does not teach, and may grade her MATH")
    func homeroomTeacher() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo"]).status == 0)
        #expect(try hogwarts.login("teacher@databayt.org").status == 0)
        for subject in ["ENG", "ARAB", "MATH"] {
            let result = try hogwarts.run(["grades", "add-assessment", "7A-\(subject)-Q9", "--class", "7A", "--subject", subject, "--term", "Term 1", "--kind", "QUIZ",
                                           "--title", "Quiz", "--date", "2026-11-20", "--max", "20", "--pass", "10", "--lang", "en"])
            if subject == "MATH" {
                #expect(result.status == 0, "\(result.stderr)")
            } else {
                #expect(result.status == 77 && result.stderr.contains("You do not teach \(subject) in 7A"), "\(result.stderr)")
            }
        }
        let enter = try hogwarts.run(["grades", "enter", "--assessment", "7A-ENG-H1", "--scores", "1=10", "--lang", "en"])
        #expect(enter.status == 77, "\(enter.stderr)")
    }
}
