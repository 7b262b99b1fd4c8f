import Auth
import Core
import Foundation
import HogwartsTestSupport
import Students
import Testing

/// Walks every console page of every built-in module (the host's generated list, so the next
/// module's pages are walked too) and the kernel's own, as a signed-in person of every role in
/// the demo school and in the other school: opened plainly, opened with the demo's ids in the
/// query, and posted with an empty form. Whatever a page answers, never a 5xx, never Swift
/// internals, and never a row of the demo school to someone from the other school.
@Suite("Every console page, every role, both schools", .waitsOnProcesses, .serialized)
struct ConsoleWalkTests {
    static let password = "Corr3ct-Horse"

    @Test("no 5xx, no Swift internals, no row across schools", arguments: Role.allCases)
    func everyPage(role: Role) async throws {
        let walk = try TwoSchoolWalk()
        let (harness, demo, nile) = (walk.harness, walk.demo, walk.nile)
        let query = "class=\(walk.schoolClass.id)&student=\(walk.student.grNumber)&child=\(walk.student.grNumber)&id=\(walk.student.id)"
        let paths = ["/", "/admin/modules", "/admin/settings", "/admin/audit"]
            + builtInModules.flatMap { module in module.contributedConsolePages.map { "/m/\(module.id)/\($0.path)" } }

        for school in [demo, nile] {
            let operator_ = harness.user(.developer, in: school)
            try harness.kernel.setSetting("auth.password-hash-cost", to: "10", for: school.id, by: operator_)
            let email = "walk-\(role.rawValue.lowercased())@\(school.slug).test"
            _ = try harness.kernel.run(CreateUser.self, .init(email: email, displayName: "Walk \(role.rawValue)", role: role, password: Self.password),
                                       as: operator_, in: school.id)
            try await harness.console { console in
                let dashboard = try await console.signIn(email, Self.password)
                #expect(dashboard.status == 200, "\(role.rawValue) of \(school.slug) signs in: \(dashboard.status)")
                for path in paths {
                    for target in [path, "\(path)?\(query)"] {
                        let opened = try await console.get(target)
                        Self.check(opened, "GET \(target) as \(role.rawValue) of \(school.slug)", leaked: walk.leaks(opened.html, to: school, asked: target))
                        guard path != "/" else { continue }
                        let posted = try await console.post(target, [])
                        Self.check(posted, "POST \(target) as \(role.rawValue) of \(school.slug)", leaked: walk.leaks(posted.html, to: school, asked: target))
                    }
                }
            }
        }
    }

    private static func check(_ page: ConsoleTestPage, _ label: String, leaked: Bool) {
        let said = "\(label): \(page.status) \(page.html.prefix(300))"
        #expect(page.status < 500, "\(said)")
        #expect(!page.html.contains("\"_0\"") && !page.html.contains("Optional("), "\(said)")
        #expect(!leaked, "a demo row leaked: \(said)")
    }
}
