import Foundation
import Testing

/// The OpenAPI document against the live server: `openapi-spec-validator` checks the document,
/// schemathesis fuzzes every operation as a signed-in admin, teacher and guardian and fails on
/// any 5xx or any response that breaks the document. CI installs both (`.ci/run`) and sets
/// `HOGWARTS_REQUIRE_API_TOOLS=1`, so there they must run; elsewhere the test runs when they
/// are installed (`pip install schemathesis openapi-spec-validator`).
@Suite("OpenAPI conformance", .waitsOnProcesses, .serialized)
struct OpenAPIConformanceTests {
    static let tools = ["openapi-spec-validator", "st"]
    static var toolsInstalled: Bool { tools.allSatisfy { Self.path(of: $0) != nil } }
    static var required: Bool { ProcessInfo.processInfo.environment["HOGWARTS_REQUIRE_API_TOOLS"] == "1" }

    @Test("the live document validates and schemathesis finds no 5xx and no response outside it",
          .enabled(if: toolsInstalled || required, "install schemathesis and openapi-spec-validator to run this"))
    func documentHoldsUnderFuzzing() async throws {
        let validator = try #require(Self.path(of: "openapi-spec-validator"), "openapi-spec-validator is not installed")
        let schemathesis = try #require(Self.path(of: "st"), "schemathesis is not installed")
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo", "--force"]).status == 0)
        let server = try ServedHogwarts(hogwarts)
        defer { _ = server.stop() }

        let document = try await server.request("GET", "/openapi.json")
        let file = hogwarts.directory.appending(path: "openapi.json")
        try document.body.write(to: file)
        let validated = try HogwartsProcess.run(validator, [file.path], in: hogwarts.directory)
        #expect(validated.status == 0, "\(validated.stdout)\(validated.stderr)")

        // Signed in before fuzzing: schemathesis' own sign-in attempts use up the address's limit.
        var tokens: [(String, String)] = []
        for email in ["admin@databayt.org", "teacher@databayt.org", "parent@databayt.org"] {
            tokens.append((email, try await server.signIn(email)))
        }
        // The three roles side by side, each on a thread of its own: one after another they held
        // a host-test thread for 25 minutes of a local PostgreSQL pass, and host tests behind it waited.
        let runs = await withTaskGroup(of: (String, Result<HogwartsProcess.Result, any Error>).self) { group in
            for (email, token) in tokens {
                group.addTask {
                    (email, await onThreadOfItsOwn { Result { try Self.fuzz(schemathesis, port: server.port, token: token, in: hogwarts.directory) } })
                }
            }
            return await group.reduce(into: [(String, Result<HogwartsProcess.Result, any Error>)]()) { $0.append($1) }
        }
        for (email, outcome) in runs {
            let run = try outcome.get()
            // Its FAILURES section where it has one: the tail of a long report can hold only warnings.
            let report = Self.failures(in: run.stdout).map { String($0.suffix(6000)) } ?? String(run.stdout.suffix(6000))
            #expect(run.status == 0, "schemathesis as \(email):\n\(report)\n\(run.stderr.suffix(2000))")
        }
    }

    /// One role's fuzzing run, asked again once when its only failures were the database being too slow to begin.
    static func fuzz(_ schemathesis: URL, port: Int, token: String, in directory: URL) throws -> HogwartsProcess.Result {
        func once() throws -> HogwartsProcess.Result {
            try HogwartsProcess.run(schemathesis, [
                "run", "http://127.0.0.1:\(port)/openapi.json", "--header", "Authorization: Bearer \(token)",
                "--checks", "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance",
                // Signing out would end the token the rest of the run uses. The live stream
                // never ends on its own, so each example waited for minutes: its answers are
                // checked in live-updates-tests.swift.
                "--exclude-path", "/api/mobile/auth/logout", "--exclude-path", "/api/v1/live",
                "--max-examples", "8", "--seed", "20261123", "--workers", "1", "--no-color",
                // Its default of 10 s, with three roles fuzzing beside a loaded test run on two
                // cores, timed a request out now and then (twice in local PostgreSQL passes); a
                // request that hangs still fails.
                "--request-timeout", "60",
            ], in: directory)
        }
        let run = try once()
        guard run.status != 0 && onlyOverloaded(run.stdout) else { return run }
        // The server's designed answer when PostgreSQL is too slow to begin (a loaded CI
        // machine): 503 with Retry-After, nothing written. Asked again once, as a client
        // would; anything else, or a second time, fails.
        Thread.sleep(forTimeInterval: 5)
        return try once()
    }

    /// Whether every failure schemathesis reported is a 503 `DATABASE_UNAVAILABLE`: the database
    /// did not answer in time, which is not a fault of the document or of a handler.
    static func onlyOverloaded(_ output: String) -> Bool {
        guard let failures = failures(in: output) else { return false }
        let lines = failures.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let checks = lines.filter { $0.hasPrefix("- ") }
        let statuses = lines.filter { $0.hasPrefix("[") && $0.contains("] ") }
        return !checks.isEmpty && checks.allSatisfy { $0.hasSuffix("Server error") } && statuses.allSatisfy { $0.hasPrefix("[503]") }
            && failures.contains("DATABASE_UNAVAILABLE")
    }

    /// schemathesis' FAILURES section, up to its WARNINGS; nil when the report has none.
    static func failures(in output: String) -> String? {
        output.components(separatedBy: "FAILURES").dropFirst().first?.components(separatedBy: "WARNINGS").first
    }

    private static func path(of tool: String) -> URL? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        return directories.map { URL(filePath: String($0)).appending(path: tool) }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}

@Suite("OpenAPI conformance: reading schemathesis' report", .waitsOnProcesses)
struct SchemathesisReportTests {
    static let busy = """
        =================================== FAILURES ===================================
        _______________________________ GET /api/v1/live _______________________________
        1. Test Case ID: HfL7hm
        - ST101 Server error
        [503] Service Unavailable:
            `{"error":"...","details":[],"code":"DATABASE_UNAVAILABLE"}`
        Reproduce with:
            curl -X GET -H 'Authorization: [Filtered]' http://127.0.0.1:37017/api/v1/live
        =================================== WARNINGS ===================================
        """

    @Test("only a 503 DATABASE_UNAVAILABLE is asked again; a 500 or a document mismatch beside it is not")
    func overloadedOnly() {
        #expect(OpenAPIConformanceTests.onlyOverloaded(Self.busy))
        #expect(!OpenAPIConformanceTests.onlyOverloaded(Self.busy.replacingOccurrences(of: "[503] Service Unavailable", with: "[500] Internal Server Error")))
        #expect(!OpenAPIConformanceTests.onlyOverloaded(Self.busy.replacingOccurrences(of: "- ST101 Server error", with: "- ST101 Server error\n- Response violates schema")))
        #expect(!OpenAPIConformanceTests.onlyOverloaded("no failures here"))
    }
}
