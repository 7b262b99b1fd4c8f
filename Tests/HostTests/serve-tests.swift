import Foundation
import Testing

/// `hogwarts serve` as the apps meet it: a real process on a socket, a real sign-in, and a stop
/// by signal that lets it finish and exit 0.
@Suite("hogwarts serve", .waitsOnProcesses, .serialized)
struct ServeTests {
    @Test("a teacher signs in, lists students, marks a class, reads it back; SIGTERM stops the server with 0")
    func teacherSession() async throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo", "--force"]).status == 0)
        let server = try ServedHogwarts(hogwarts)

        let token = try await server.signIn( "teacher@databayt.org")
        let students = try await server.request("GET", "/api/mobile/students?per_page=5", token: token)
        #expect(students.status == 200)
        #expect(students.data.count == 5)
        #expect((students.object["total"] as? Int ?? 0) > 5)

        let classes = try await server.request("GET", "/api/mobile/teacher/classes", token: token)
        let classID = try #require(classes.data.first?["section_id"] as? String)
        let before = try await server.request("GET", "/api/mobile/attendance/class/\(classID)", token: token)
        #expect(before.status == 200)
        let roster = before.data.compactMap { $0["student_id"] as? String }
        #expect(!roster.isEmpty)
        let records = roster.enumerated().map { index, id in ["student_id": id, "status": index == 0 ? "ABSENT" : "PRESENT"] }
        let marked = try await server.request("POST", "/api/mobile/attendance/bulk", token: token,
                                              json: ["section_id": classID, "records": records])
        #expect(marked.status == 200, "\(String(decoding: marked.body, as: UTF8.self))")
        #expect(marked.object["count"] as? Int == roster.count)

        let after = try await server.request("GET", "/api/mobile/attendance/class/\(classID)", token: token)
        #expect(after.object["marked"] as? Int == roster.count)
        #expect(after.data.first { $0["student_id"] as? String == roster[0] }?["status"] as? String == "ABSENT")
        #expect(after.data.filter { $0["status"] as? String == "PRESENT" }.count == roster.count - 1)

        #expect(server.stop() == 0)
        let log = server.logText
        #expect(log.contains("route=/api/mobile/students") && log.contains("status=200") && log.contains("school="), "one line per request")
        #expect(!log.contains(token) && !log.contains("1234"), "no token or password in the log")
    }

    @Test("an email in two schools gets 409 with the schools, then signs in to the one named")
    func emailInTwoSchools() async throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo", "--force"]).status == 0)
        // The Nile school's admin gives the demo's teacher an account there too.
        #expect(try hogwarts.login("admin@nile.databayt.org").status == 0)
        let created = try hogwarts.run(["users", "create", "--email", "teacher@databayt.org", "--name", "Teacher", "--role", "TEACHER"],
                                       input: "Corr3ct-Horse-9\n")
        #expect(created.status == 0, "\(created.stderr)")
        let server = try ServedHogwarts(hogwarts)
        defer { _ = server.stop() }
        let ambiguous = try await server.request("POST", "/api/mobile/auth", json: ["identifier": "teacher@databayt.org", "password": "1234"],
                                                 headers: ["Accept-Language": "en"])
        #expect(ambiguous.status == 409)
        #expect(ambiguous.object["code"] as? String == "AUTH_SEVERAL_SCHOOLS")
        let token = try await server.signIn( "teacher@databayt.org")
        let profile = try await server.request("GET", "/api/mobile/profile", token: token)
        #expect((profile.object["school"] as? [String: Any])?["domain"] as? String == "demo")
        let wrong = try await server.request("POST", "/api/mobile/auth", json: ["identifier": "admin@databayt.org", "password": "nope"])
        #expect(wrong.status == 401)
        let metrics = String(decoding: try await server.request("GET", "/metrics").body, as: UTF8.self)
        #expect(metrics.contains("hogwarts_sign_in_failures_total 1"))
    }
}
