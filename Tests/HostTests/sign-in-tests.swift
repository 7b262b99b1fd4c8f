import Foundation
import HogwartsTestSupport
import Testing

/// Signing in from the command line, the way a teacher or a parent does.
@Suite("Signing in with the hogwarts binary", .waitsOnProcesses)
struct SignInTests {
    static func demo() throws -> HogwartsProcess {
        let hogwarts = try HogwartsProcess()
        let demo = try hogwarts.run(["demo"])
        #expect(demo.status == 0, "\(demo.stderr)")
        return hogwarts
    }

    @Test("login reads the password from stdin, keeps the session in a 0600 file, and whoami shows it")
    func loginAndWhoami() throws {
        let hogwarts = try Self.demo()
        defer { hogwarts.cleanUp() }
        let login = try hogwarts.login("teacher@databayt.org")
        #expect(login.status == 0, "\(login.stderr)")
        #expect(login.stdout.contains("signed in to demo as TEACHER"))

        let sessionFile = hogwarts.directory.appending(path: "config/sessions.json").path
        let permissions = try FileManager.default.attributesOfItem(atPath: sessionFile)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        #expect(!(try String(contentsOfFile: sessionFile, encoding: .utf8)).contains("1234"), "the password is never stored")

        let whoami = try hogwarts.run(["whoami", "--json"])
        #expect(whoami.stdout.contains("\"role\" : \"TEACHER\"") && whoami.stdout.contains("\"school\" : \"demo\""))

        #expect(try hogwarts.run(["logout"]).status == 0)
        let after = try hogwarts.run(["whoami", "--lang", "en"])
        #expect(after.status == 77)
        #expect(after.stderr.contains("not signed in"))
    }

    @Test("an email in two schools must choose; the web app silently picked one")
    func schoolChoice() throws {
        let hogwarts = try Self.demo()
        defer { hogwarts.cleanUp() }
        let ambiguous = try hogwarts.login("parent@databayt.org")
        #expect(ambiguous.status == 64)
        #expect(ambiguous.stderr.contains("demo, nile"))
        #expect(try hogwarts.login("parent@databayt.org", school: "nile").status == 0)
        #expect(try hogwarts.run(["whoami", "--json"]).stdout.contains("\"school\" : \"nile\""))
        let nileStudents = try hogwarts.run(["students", "list", "--json"]).stdout
        #expect(nileStudents.contains("GR-5") && !nileStudents.contains("\"GR-0"), "only the nile child")
    }

    @Test("wrong password and unknown email give the same refusal")
    func genericRefusal() throws {
        let hogwarts = try Self.demo()
        defer { hogwarts.cleanUp() }
        let wrong = try hogwarts.login("admin@databayt.org", password: "nope")
        let unknown = try hogwarts.login("ghost@databayt.org")
        #expect(wrong.status == 77 && unknown.status == 77)
        #expect(wrong.stderr == unknown.stderr)
    }

    @Test("an expired session is refused with a request to sign in again")
    func sessionExpiry() throws {
        let hogwarts = try Self.demo()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.login("admin@databayt.org").status == 0)
        #expect(try hogwarts.run(["students", "list"]).status == 0)
        // A day passes: move the session's expiry into the past.
        try hogwarts.execute("UPDATE auth_sessions SET expires_at = '2000-01-01T00:00:00.000Z'")
        let expired = try hogwarts.run(["students", "list", "--lang", "en"])
        #expect(expired.status == 77)
        #expect(expired.stderr.contains("session has expired"))
    }

    @Test("a guardian who asks for a child that is not theirs is refused")
    func guardianRefused() throws {
        let hogwarts = try Self.demo()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.login("parent@databayt.org", school: "demo").status == 0)
        let children = try hogwarts.run(["students", "list", "--json"])
        let page = try JSONSerialization.jsonObject(with: Data(children.stdout.utf8)) as? [String: Any]
        let own = (page?["students"] as? [[String: Any]])?.compactMap { $0["gr_number"] as? String } ?? []
        #expect(own.count == 2)
        let stranger = (1...500).map { String(format: "GR-%04d", $0) }.first { !own.contains($0) } ?? "GR-0001"
        let refused = try hogwarts.run(["students", "show", stranger, "--lang", "en"])
        // Another family's child reads like a GR number nobody has: exit 66, no name.
        #expect(refused.status == 66)
        #expect(refused.stderr.contains("There is no student with GR number \(stranger)"))
        #expect(try hogwarts.run(["students", "show", own[0]]).status == 0)
    }

    @Test("an administrator imports a CSV only when every row is valid")
    func importFromTheCommandLine() throws {
        let hogwarts = try Self.demo()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.login("admin@databayt.org").status == 0)
        let bad = hogwarts.directory.appending(path: "bad.csv")
        try "gr_number,given_name,surname,date_of_birth,gender,class\nGR-9001,Sara,Ali,2014-01-01,FEMALE,7A\nGR-9002,,Ali,2014-02-30,FEMALE,7A\n"
            .write(to: bad, atomically: true, encoding: .utf8)
        let refused = try hogwarts.run(["students", "import", bad.path, "--lang", "en"])
        #expect(refused.status == 65)
        #expect(refused.stdout.contains("given_name") && refused.stdout.contains("date_of_birth"), "every bad row is shown: \(refused.stdout)")
        #expect(try hogwarts.run(["students", "list", "--search", "GR-9001", "--json"]).stdout.contains("\"total\" : 0"))

        let good = hogwarts.directory.appending(path: "good.csv")
        try "gr_number,given_name,surname,date_of_birth,gender,class\nGR-9001,Sara,Ali,2014-01-01,FEMALE,7A\n".write(to: good, atomically: true, encoding: .utf8)
        #expect(try hogwarts.run(["students", "import", good.path, "--dry-run"]).status == 0)
        #expect(try hogwarts.run(["students", "list", "--search", "GR-9001", "--json"]).stdout.contains("\"total\" : 0"), "a dry run writes nothing")
        #expect(try hogwarts.run(["students", "import", good.path]).status == 0)
        #expect(try hogwarts.run(["students", "list", "--search", "GR-9001", "--json"]).stdout.contains("\"total\" : 1"))
    }
}

@Suite("Timetable from the command line", .waitsOnProcesses, .commandLineShape)
struct TimetableCommandTests {
    @Test("a student sees their week with its letter, and the calendar shows every week's letter")
    func studentTimetable() throws {
        let hogwarts = try SignInTests.demo()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.login("student@databayt.org").status == 0)
        let week = try hogwarts.run(["timetable", "week", "--date", "2026-11-24", "--lang", "en"])
        #expect(week.status == 0, "\(week.stderr)")
        #expect(week.stdout.contains("Tuesday 2026-11-24 Week B") && week.stdout.contains("(7A)"))
        let cycle = try hogwarts.run(["timetable", "cycle", "--from", "2026-10-25", "--to", "2026-11-14", "--json"])
        let weeks = try JSONSerialization.jsonObject(with: Data(cycle.stdout.utf8)) as? [[String: Any]]
        #expect(weeks?.count == 3)
        let other = try hogwarts.run(["timetable", "week", "--class", "12C", "--lang", "en"])
        #expect(other.status == 66, "a student sees only their own class: another reads like none")
        #expect(try hogwarts.run(["timetable", "now", "--json"]).stdout.contains("\"next\""))
    }
}

@Suite("Attendance from the command line", .waitsOnProcesses, .commandLineShape)
struct AttendanceCommandTests {
    @Test("a teacher takes the register, a student checks in with the code, a parent reads the history")
    func register() throws {
        let hogwarts = try SignInTests.demo()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.login("teacher@databayt.org").status == 0)
        let taken = try hogwarts.run(["attendance", "take", "--class", "7A", "--date", DemoDays.today, "--period", "P2", "--absent", "3,7", "--late", "12", "--lang", "en"])
        #expect(taken.status == 0, "\(taken.stderr)")
        #expect(taken.stdout.contains("2 absent, 1 late"))
        let foreign = try hogwarts.run(["attendance", "take", "--class", "7A", "--absent", "GR-0300", "--lang", "en"])
        #expect(foreign.status == 65 && foreign.stderr.contains("GR-0300 is not enrolled in 7A"))
        let nobody = try hogwarts.run(["attendance", "take", "--class", "7A", "--absent", "GR-9999", "--lang", "en"])
        #expect(foreign.stderr.replacingOccurrences(of: "GR-0300", with: "GR") == nobody.stderr.replacingOccurrences(of: "GR-9999", with: "GR"),
                "a student of another class reads like a number nobody has, with no name")

        let window = try hogwarts.run(["attendance", "open-check-in", "--class", "7A", "--json"])
        let code = try #require((try JSONSerialization.jsonObject(with: Data(window.stdout.utf8)) as? [String: Any])?["code"] as? String)
        #expect(try hogwarts.login("student@databayt.org").status == 0)
        let checkIn = try hogwarts.run(["attendance", "checkin", "--code", code, "--lang", "en"])
        #expect(checkIn.status == 0 && checkIn.stdout.contains("Checked in"))
        #expect(try hogwarts.run(["attendance", "checkin", "--code", code + "x"]).status == 65)

        #expect(try hogwarts.login("parent@databayt.org", school: "demo").status == 0)
        let child = try hogwarts.run(["students", "list", "--json"])
        let gr = try #require(((try JSONSerialization.jsonObject(with: Data(child.stdout.utf8)) as? [String: Any])?["students"] as? [[String: Any]])?.first?["gr_number"] as? String)
        let history = try hogwarts.run(["attendance", "history", "--student", gr, "--lang", "en"])
        #expect(history.status == 0 && history.stdout.contains("rate"))
    }
}

@Suite("Grades from the command line", .waitsOnProcesses, .commandLineShape)
struct GradesCommandTests {
    @Test("a teacher's bad batch lists every bad row and writes nothing; a student reads the published report card")
    func gradesFlow() throws {
        let hogwarts = try SignInTests.demo()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.login("admin@databayt.org").status == 0)
        #expect(try hogwarts.run(["grades", "add-assessment", "7A-MATH-Q9", "--class", "7A", "--subject", "MATH", "--term", "Term 1", "--kind", "QUIZ",
                                  "--title", "Quiz 9", "--date", "2026-11-20", "--max", "20", "--pass", "10"]).status == 0)
        let bad = try hogwarts.run(["grades", "enter", "--assessment", "7A-MATH-Q9", "--scores", "1=18.5,2=25,GR-0300=10", "--lang", "en"])
        #expect(bad.status == 65)
        #expect(bad.stdout.contains("between 0 and 20") && bad.stdout.contains("GR-0300"), "\(bad.stdout)")
        #expect(bad.stderr.contains("nothing was written"))
        #expect(try hogwarts.run(["grades", "enter", "--assessment", "7A-MATH-Q9", "--scores", "1=18.5,2=absent"]).status == 0)

        #expect(try hogwarts.login("student@databayt.org").status == 0)
        let card = try hogwarts.run(["grades", "report-card", "--student", "GR-0001", "--term", "Term 1", "--lang", "en"])
        #expect(card.status == 0, "\(card.stderr)")
        #expect(card.stdout.contains("GPA") && card.stdout.contains("Mathematics"))
        let chart = try hogwarts.run(["grades", "history", "--student", "GR-0001", "--subject", "MATH"])
        #expect(chart.stdout.contains("█"))
    }
}
