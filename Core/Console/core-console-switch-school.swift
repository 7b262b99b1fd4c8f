import Foundation
import Synchronization
import HogwartsBase
import HogwartsKernel

/// "Switch school", for a person whose email has an active account in another school: the
/// page lists those schools, and each opens that school's sign-in with the email filled in and
/// the school fixed. The password is still asked (each school keeps its own); signing in there
/// replaces this browser's session.
struct ConsoleSwitchSchool: Sendable {
    let shell: ConsoleShell

    static let path = "/switch-school"

    func page(_ console: ConsoleRequest) async throws -> ConsoleResponse {
        guard let choice = shell.identity?.schoolChoice else { throw ConsoleProblem.notFound }
        let principal = console.principal
        let others = try await console.offload { kernel in try choice.otherSchools(of: principal, kernel: kernel) }
        let schools = others?.schools ?? []
        shell.otherSchools.remember(!schools.isEmpty, for: console)
        let localizer = console.localizer
        let body = Self.template.render([
            "current": localizer("console.switch-school.current", ["school": console.school.name.text(in: console.language)]),
            "intro": localizer("console.switch-school.intro"), "none": schools.isEmpty ? localizer("console.switch-school.none") : "",
            "schools": schools.map { school in
                ["href": ConsoleForm.path("/sign-in", query: [("school", school.id)]),
                 "label": localizer("console.switch-school.go", ["school": school.name.text(in: console.language)])]
            },
            "hasSchools": !schools.isEmpty,
        ])
        return .page(title: localizer("console.switch-school.title"), body: body)
    }

    /// The email and the school of another school's sign-in asked for by a signed-in person;
    /// nil when that school is not one of theirs.
    func target(_ wanted: String, for principal: Principal) async throws -> (email: String, school: School)? {
        guard let choice = shell.identity?.schoolChoice else { return nil }
        let kernel = shell.kernel
        let others = try await shell.server.threadPool.runIfActive { try choice.otherSchools(of: principal, kernel: kernel) }
        guard let others, let school = others.schools.first(where: { $0.id == wanted }) else { return nil }
        return (others.email, school)
    }

    static let template = ConsoleTemplate("""
        <div class="panel narrow">
        <p>{{current}}</p>
        {{#hasSchools}}<p>{{intro}}</p>
        <ul class="actions">{{#schools}}<li><a class="button" href="{{href}}">{{label}}</a></li>{{/schools}}</ul>{{/hasSchools}}
        {{#none}}<p>{{none}}</p>{{/none}}
        </div>
        """)
}

/// Whether a signed-in person has another school, for the menu: asked at most once a minute per
/// person and server, not on every page (a look-up in each school).
final class ConsoleOtherSchoolsCache: Sendable {
    static let maximumAge: TimeInterval = 60
    static let mostEntries = 10_000
    private let entries = Mutex<[String: (has: Bool, at: Date)]>([:])

    func has(_ console: ConsoleRequest, shell: ConsoleShell) async -> Bool {
        let key = Self.key(console)
        if let entry = entries.withLock({ $0[key] }), Date().timeIntervalSince(entry.at) < Self.maximumAge { return entry.has }
        guard let choice = shell.identity?.schoolChoice else { return false }
        let principal = console.principal
        // A look-up that fails leaves the entry out of the menu rather than failing the page.
        let others = try? await console.offload { kernel in try choice.otherSchools(of: principal, kernel: kernel) }
        let has = others?.schools.isEmpty == false
        remember(has, for: console)
        return has
    }

    func remember(_ has: Bool, for console: ConsoleRequest) {
        let key = Self.key(console)
        entries.withLock { entries in
            if entries.count >= Self.mostEntries { entries.removeAll() }
            entries[key] = (has, Date())
        }
    }

    private static func key(_ console: ConsoleRequest) -> String {
        "\(console.school.id)|\(console.principal.userID)"
    }
}
