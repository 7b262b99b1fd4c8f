import Foundation
import HogwartsKernel

/// The frame around every signed-in page: the school, the menu of what this person may open
/// (the shell's admin pages and the pages of the modules on for the school), the language
/// switch and sign-out.
struct ConsoleLayout {
    let shell: ConsoleShell

    func document(_ console: ConsoleRequest, title: String, body: ConsoleHTML, notice: String?, error: String?) async -> ConsoleHTML {
        let localizer = console.localizer
        let other: Language = console.language == .ar ? .en : .ar
        var nav: [[String: Any]] = []
        for item in menu(console) {
            var entry: [String: Any] = ["href": item.href, "label": item.label,
                                        "current": item.href == console.path || (item.href != "/" && console.path.hasPrefix(item.href + "/"))]
            // A count that cannot be read leaves the entry without one rather than failing the page.
            if let badge = item.badge, let count = try? await badge.count(console) {
                entry["badge"] = ["kind": badge.liveKind, "count": String(count), "hidden": count == 0,
                                  "label": badge.label.text(in: console.language)] as [String: Any]
            }
            nav.append(entry)
        }
        if await shell.otherSchools.has(console, shell: shell) {
            nav.append(["href": ConsoleSwitchSchool.path, "label": localizer("console.switch-school.title"),
                        "current": console.path == ConsoleSwitchSchool.path])
        }
        return ConsoleTemplates.layout.render([
            "lang": console.language.rawValue, "dir": console.language.isRightToLeft ? "rtl" : "ltr",
            "title": title, "site": console.school.name.text(in: console.language), "skip": localizer("console.skip"),
            "body": body, "notice": notice ?? "", "error": error ?? "",
            "user": [
                "name": console.principal.displayName, "role": localizer("console.role.\(console.principal.role.rawValue)"),
                "nav": nav, "navLabel": localizer("console.nav"), "csrf": console.csrfToken, "back": console.path,
                "otherLang": other.rawValue, "otherLangLabel": localizer("console.language.\(other.rawValue)"),
                "languageLabel": localizer("console.language.switch"), "signOut": localizer("console.sign-out"),
            ] as [String: Any],
        ])
    }

    /// Dashboard first, then the admin pages the role may use, then each module's pages in
    /// dependency order, only where the module is on and the role holds the page's permission.
    func menu(_ console: ConsoleRequest) -> [(href: String, label: String, badge: ConsoleBadge?)] {
        let localizer = console.localizer
        var items: [(href: String, label: String, badge: ConsoleBadge?)] = [("/", localizer("console.dashboard.title"), nil)]
        if console.may(KernelPermissions.manageModules) { items.append(("/admin/modules", localizer("console.modules.title"), nil)) }
        if console.may(KernelPermissions.manageSettings) { items.append(("/admin/settings", localizer("console.settings.title"), nil)) }
        if console.may(KernelPermissions.manageModules) { items.append(("/admin/audit", localizer("console.audit.title"), nil)) }
        for module in shell.kernel.registry.modules where console.enabledModules.contains(module.id) {
            for page in module.contributedConsolePages where page.inMenu && console.may(open: page) {
                items.append((console.pagePath(module.id, page.path), page.title.text(in: console.language), page.badge))
            }
        }
        return items
    }
}

/// The dashboard: each card of each module on for the school that this person's role may see.
struct ConsoleDashboard {
    let shell: ConsoleShell

    func page(_ console: ConsoleRequest) async throws -> ConsoleResponse {
        var cards: [[String: Any]] = []
        for module in shell.kernel.registry.modules where console.enabledModules.contains(module.id) {
            for card in module.contributedConsoleCards where console.may(card.permission) {
                // One card that cannot answer (no child linked, no timetable yet) leaves the others standing.
                guard let html = try? await card.render(console) else { continue }
                cards.append(["id": "\(module.id)-\(card.id)", "title": card.title.text(in: console.language), "html": html])
            }
        }
        let body = ConsoleTemplates.dashboard.render([
            "cards": cards, "empty": cards.isEmpty ? console.localizer("console.dashboard.empty") : "",
            "greeting": console.localizer("console.dashboard.greeting", ["name": console.principal.displayName]),
        ])
        return .page(title: console.localizer("console.dashboard.title"), body: body)
    }
}
