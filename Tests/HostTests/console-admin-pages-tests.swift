import Auth
import Core
import Foundation
import HogwartsTestSupport
import Testing

/// The console's audit log, users and roles, and dashboard charts on the demo school,
/// in-process, in Arabic and in English.
@Suite("Web console: audit, users, dashboards", .waitsOnProcesses, .serialized)
struct ConsoleAdminPagesTests {
    let harness: TestHarness
    let demo: School

    init() throws {
        let (harness, schools) = try TestHarness.withDemo(modules: builtInModules)
        self.harness = harness
        demo = try #require(schools.first { $0.slug == "demo" })
    }

    /// Rows of a table as the page shows them: each `<tr ...>` after the header.
    static func rows(_ html: String, marker: String) -> [Substring] {
        html.components(separatedBy: marker).dropFirst().map { Substring($0.prefix { $0 != ">" }) }
    }

    @Test("the admin reads the school's audit log, filtered by outcome, action, who and days, a page at a time; a bad day says what to write")
    func audit() async throws {
        let demo = demo
        for index in 0..<30 {
            try harness.kernel.recordAudit(action: "demo.paging", principal: .localOperator, school: demo.id, outcome: .succeeded, detail: "line \(index)")
        }
        // The school's day before and after the sign-ins: a run that crosses the school's midnight
        // (22:00 UTC for Khartoum) signs in on the later day.
        let zone = TimeZone(identifier: demo.timeZone) ?? .gmt
        let before = CivilDate(Date(), in: zone)
        try await harness.console { console in
            _ = try await console.signIn("admin@databayt.org", "wrong-password", school: demo.id)
            let dashboard = try await console.signIn("admin@databayt.org", "1234", school: demo.id)
            let after = CivilDate(Date(), in: zone)
            #expect(dashboard.html.contains("href=\"/admin/audit\""))
            let all = try await console.get("/admin/audit")
            #expect(all.status == 200)
            #expect(all.html.contains("<html lang=\"ar\" dir=\"rtl\">"))
            #expect(all.html.contains("id=\"audit-log\""))

            let failed = try await console.get("/admin/audit?outcome=FAILED")
            let outcomes = Self.rows(failed.html, marker: "data-outcome=\"").map { $0.prefix { $0 != "\"" } }
            #expect(!outcomes.isEmpty)
            #expect(outcomes.allSatisfy { $0 == "FAILED" })
            #expect(failed.html.contains("<option value=\"FAILED\" selected>"))

            let signIns = try await console.get("/admin/audit?action=auth.sign-in&from=\(before)&to=\(after)")
            let actions = signIns.html.components(separatedBy: "<td><code dir=\"ltr\">").dropFirst().enumerated()
                .filter { $0.offset % 2 == 1 }.map { $0.element.prefix { $0 != "<" } }
            #expect(!actions.isEmpty)
            #expect(actions.allSatisfy { $0.contains("auth.sign-in") })

            let tomorrow = try await console.get("/admin/audit?from=\(after.adding(days: 1))")
            #expect(tomorrow.html.contains("id=\"audit-none\""))
            let nobody = try await console.get("/admin/audit?who=nobody-has-this-id")
            #expect(nobody.html.contains("id=\"audit-none\""))

            let bad = try await console.get("/admin/audit?from=2025-13-45")
            #expect(bad.html.contains("role=\"alert\""))
            #expect(bad.html.contains("YYYY-MM-DD"))

            // Thirty lines and more: more than one page, and the next page is older.
            let first = try await console.get("/admin/audit")
            #expect(first.html.contains("rel=\"next\""))
            let second = try await console.get("/admin/audit?offset=25")
            #expect(second.html.contains("rel=\"prev\""))
            #expect(second.html.contains("id=\"audit-count\""))

            let english = try await console.post("/language", [("lang", "en"), ("back", "/admin/audit")])
            #expect(english.html.contains("<html lang=\"en\" dir=\"ltr\">"))
            #expect(english.html.contains("Audit log"))
        }
    }

    @Test("only administrators see the audit log and the users page")
    func forbidden() async throws {
        let demo = demo
        try await harness.console { console in
            let dashboard = try await console.signIn("teacher@databayt.org", "1234", school: demo.id)
            #expect(!dashboard.html.contains("href=\"/admin/audit\""))
            #expect(!dashboard.html.contains("href=\"/m/auth/users\""))
            #expect(try await console.get("/admin/audit").status == 403)
            #expect(try await console.get("/m/auth/users").status == 403)
        }
    }

    @Test("the admin lists users with role and status, changes a role and suspends and reinstates an account through Auth's actions")
    func users() async throws {
        let kernel = harness.kernel
        let demo = demo
        @Sendable func account(_ email: String) throws -> User? {
            try kernel.run(ListUsers.self, .init(search: email), as: .localOperator, in: demo.id).first { $0.email == email }
        }
        try await harness.console { console in
            let dashboard = try await console.signIn("admin@databayt.org", "1234", school: demo.id)
            #expect(dashboard.html.contains("href=\"/m/auth/users\""))
            let list = try await console.get("/m/auth/users")
            #expect(list.status == 200)
            #expect(list.html.contains("rel=\"next\""))
            let admins = try await console.get("/m/auth/users?filter=ADMIN")
            #expect(admins.html.contains("<option value=\"ADMIN\" selected>"))
            // No switch on one's own row: an admin does not lock themself out by a slip.
            let own = try #require(admins.html.components(separatedBy: "data-email=\"admin@databayt.org\"").dropFirst().first)
            #expect(!own.components(separatedBy: "</tr>")[0].contains("name=\"do\""))

            let found = try await console.get("/m/auth/users?search=teacher%40databayt")
            #expect(found.html.components(separatedBy: "data-email=").count - 1 == 1)
            #expect(found.html.contains("data-email=\"teacher@databayt.org\" data-status=\"ACTIVE\""))

            let changed = try await console.post("/m/auth/users", [("do", "role"), ("email", "teacher@databayt.org"), ("role", "STAFF")])
            #expect(changed.html.contains("role=\"status\""))
            #expect(try account("teacher@databayt.org")?.role == .staff)
            _ = try await console.post("/m/auth/users", [("do", "role"), ("email", "teacher@databayt.org"), ("role", "TEACHER")])
            #expect(try account("teacher@databayt.org")?.role == .teacher)

            // The quick suspend asks first, above the list as it was; only the confirmation suspends.
            let asked = try await console.post("/m/auth/users", [("do", "suspend"), ("email", "parent@databayt.org"), ("search", "parent@")])
            #expect(asked.html.contains("id=\"users-confirm-suspend\"") && asked.html.contains("name=\"confirm\" value=\"yes\""))
            #expect(asked.html.contains("href=\"/m/auth/users?search=parent%40\""), "cancel keeps the search")
            #expect(asked.html.contains("data-email=\"parent@databayt.org\" data-status=\"ACTIVE\""))
            #expect(try account("parent@databayt.org")?.status == .active, "one tap suspends nobody")
            let suspended = try await console.post("/m/auth/users", [("do", "suspend"), ("email", "parent@databayt.org"), ("search", "parent@"), ("confirm", "yes")])
            #expect(suspended.html.contains("role=\"status\"") && !suspended.html.contains("id=\"users-confirm-suspend\""))
            #expect(suspended.html.contains("data-email=\"parent@databayt.org\" data-status=\"SUSPENDED\""))
            #expect(try account("parent@databayt.org")?.status == .suspended)
            _ = try await console.post("/m/auth/users", [("do", "reinstate"), ("email", "parent@databayt.org")])
            #expect(try account("parent@databayt.org")?.status == .active)

            let unknown = try await console.post("/m/auth/users", [("do", "suspend"), ("email", "nobody@databayt.org")])
            #expect(unknown.html.contains("role=\"alert\""))
            let audit = try kernel.auditLog(for: demo.id, limit: 10).map(\.action)
            #expect(audit.contains("auth.change-role"))
            #expect(audit.contains("auth.set-suspended"))
        }
    }

    @Test("dashboards draw attendance over the term, by class, and grade distribution as SVG with text, right to left in Arabic")
    func dashboards() async throws {
        let demo = demo
        try await harness.console { console in
            let arabic = try await console.signIn("admin@databayt.org", "1234", school: demo.id)
            #expect(arabic.html.contains("id=\"card-attendance-term\""))
            #expect(arabic.html.contains("id=\"attendance-trend-title\""))
            #expect(arabic.html.contains("id=\"attendance-classes-title\""))
            #expect(arabic.html.contains("id=\"card-grades-distribution\""))
            #expect(arabic.html.contains("id=\"grades-distribution-"))
            #expect(arabic.html.contains("direction=\"rtl\""))
            #expect(arabic.html.contains("نسبة الحضور أسبوعًا بأسبوع"))
            let english = try await console.post("/language", [("lang", "en"), ("back", "/")])
            #expect(english.html.contains("Attendance rate week by week"))
            #expect(english.html.contains("marks by letter"))
            #expect(!english.html.contains("direction=\"rtl\""))
        }
        try await harness.console { console in
            let teacher = try await console.signIn("teacher@databayt.org", "1234", school: demo.id)
            #expect(teacher.html.contains("id=\"card-attendance-term\""))
            #expect(teacher.html.contains("id=\"card-grades-distribution\""))
        }
        try await harness.console { console in
            let guardian = try await console.signIn("parent@databayt.org", "1234", school: demo.id)
            #expect(!guardian.html.contains("id=\"card-grades-distribution\""))
            #expect(!guardian.html.contains("id=\"card-attendance-term\""))
        }
    }
}
