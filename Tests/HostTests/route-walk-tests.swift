import Core
import Foundation
import HogwartsTestSupport
import Students
import Testing

/// Walks every route of every built-in module (the host's generated list, so the next module's
/// routes are walked too) as every role of the demo school and of the other school, with no
/// body and with the demo's real ids in the path. Whatever a route answers, it must be one of
/// the API's statuses in the one error shape, never a 5xx, never Swift internals, and never a
/// row of the demo school to someone from the other school.
@Suite("Every route, every role, both schools", .waitsOnProcesses, .serialized)
struct RouteWalkTests {
    @Test("no 5xx, one error shape, no Swift internals, no row across schools", arguments: Role.allCases)
    func everyRoute(role: Role) async throws {
        let walk = try TwoSchoolWalk()
        let (harness, demo, nile) = (walk.harness, walk.demo, walk.nile)

        try await harness.api { api in
            for (_, route) in api.server.routes {
                let path = Self.fill(route.path, student: walk.student.id, schoolClass: walk.schoolClass.id)
                for (school, principal) in [(demo, harness.user(role, in: demo)), (nile, harness.user(role, in: nile))] {
                    let json: Any? = route.method == .get || route.method == .delete ? nil : [String: Any]()
                    var response = try await api.request(.init(rawValue: route.method.rawValue) ?? .get, path, as: principal, json: json)
                    if response.status == 503 && response.code == "DATABASE_UNAVAILABLE" {
                        // The designed answer when the database took longer than its bound (a
                        // loaded CI machine): the apps ask again after Retry-After, and so does the walk.
                        try await Task.sleep(for: .seconds(2))
                        response = try await api.request(.init(rawValue: route.method.rawValue) ?? .get, path, as: principal, json: json)
                    }
                    let label = "\(route.method.rawValue) \(path) as \(role.rawValue) of \(school.slug): \(response.status) \(response.text.prefix(300))"
                    #expect(response.status < 500, "\(label)")
                    #expect(!response.text.contains("\"_0\""), "\(label)")
                    if response.status >= 400 {
                        #expect(response.object["error"] is String && response.code != nil && response.object["details"] is [Any], "\(label)")
                        #expect(!RouteWalkRefusalTests.speaksCommandLine(response.object["error"] as? String ?? ""), "command-line words: \(label)")
                    }
                    #expect(!walk.leaks(response.text, to: school, asked: path), "a demo row leaked: \(label)")
                }
            }
        }
    }

    /// Puts the demo's ids where a route names a student, child, user or class.
    static func fill(_ path: String, student: String, schoolClass: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { part -> String in
            guard part.hasPrefix(":") else { return String(part) }
            let name = part.lowercased()
            if name.contains("class") || name.contains("section") { return schoolClass }
            if name.contains("student") || name.contains("child") || name.contains("user") { return student }
            return "00000000-0000-0000-0000-000000000000"
        }.joined(separator: "/")
    }
}
