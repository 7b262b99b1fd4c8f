import Foundation
import HogwartsBase
import HogwartsKernel

/// The school's modules with on/off switches, for whoever may manage modules. Dependencies are
/// said in words, and switching off a module others use asks before switching those off too.
/// The switches are the kernel's own (`enable`, `disable`), with its checks and audit.
struct ConsoleModulesPage {
    let shell: ConsoleShell

    func page(_ console: ConsoleRequest, error: String? = nil) async throws -> ConsoleResponse {
        try require(console)
        let localizer = console.localizer
        var notice = ""
        if let id = console.query["module"], let state = console.query["done"], let module = try? shell.kernel.registry.module(id) {
            notice = localizer(state == "on" ? "console.modules.now-on" : "console.modules.now-off", ["module": name(module, console)])
        }
        let rows = shell.kernel.registry.modules.map { row($0, console) }
        let body = ConsoleTemplates.modules.render(console.common.merging([
            "intro": localizer("console.modules.intro"), "modules": rows, "notice": notice, "error": error ?? "",
            "stateOn": localizer("console.modules.on"), "stateOff": localizer("console.modules.off"),
        ]) { $1 })
        return .page(title: localizer("console.modules.title"), body: body)
    }

    func submit(_ console: ConsoleRequest) async throws -> ConsoleResponse {
        try require(console)
        let id = console.form.value("module") ?? ""
        guard let module = try? shell.kernel.registry.module(id), module.contributedConsoleIdentity == nil else { throw ConsoleProblem.notFound }
        let principal = console.principal
        let school = console.school.id
        do {
            if console.form.value("turn") == "on" {
                try await console.offload(on: .writes) { kernel in try kernel.enable(id, for: school, by: principal) }
                return .redirect(ConsoleForm.path("/admin/modules", query: [("done", "on"), ("module", id)]))
            }
            let dependents = shell.kernel.registry.dependents(of: id).filter(console.enabledModules.contains)
            if !dependents.isEmpty && console.form.value("confirm") != "yes" {
                return confirmation(module, dependents: dependents, console)
            }
            try await console.offload(on: .writes) { kernel in try kernel.disable(id, for: school, cascade: !dependents.isEmpty, by: principal) }
            return .redirect(ConsoleForm.path("/admin/modules", query: [("done", "off"), ("module", id)]))
        } catch let error as KernelError {
            // A refusal (a dependency still off) is shown beside the switches, with what to do.
            return try await page(console, error: console.message(for: error))
        }
    }

    private func require(_ console: ConsoleRequest) throws {
        guard console.may(KernelPermissions.manageModules) else { throw ConsoleProblem.forbidden }
    }

    private func confirmation(_ module: any AppModule, dependents: [ModuleID], _ console: ConsoleRequest) -> ConsoleResponse {
        let localizer = console.localizer
        let names = dependents.compactMap { try? shell.kernel.registry.module($0) }.map { name($0, console) }
        let body = ConsoleTemplates.confirmCascade.render(console.common.merging([
            "question": localizer("console.modules.cascade-question", ["module": name(module, console), "count": String(names.count)]),
            "dependents": names, "kept": localizer("console.modules.data-kept"), "module": module.id,
            "confirm": localizer("console.modules.cascade-confirm", ["count": String(names.count + 1)]),
            "cancel": localizer("console.modules.cancel"),
        ]) { $1 })
        return .page(title: localizer("console.modules.cascade-title", ["module": name(module, console)]), body: body)
    }

    private func row(_ module: any AppModule, _ console: ConsoleRequest) -> [String: Any] {
        let localizer = console.localizer
        let registry = shell.kernel.registry
        let on = console.enabledModules.contains(module.id)
        let needs = module.dependencies.compactMap { try? registry.module($0.moduleID) }.map { name($0, console) }
        let users = registry.dependents(of: module.id).filter(console.enabledModules.contains)
            .compactMap { try? registry.module($0) }.map { name($0, console) }
        let missing = module.dependencies.map(\.moduleID).filter { !console.enabledModules.contains($0) }
            .compactMap { try? registry.module($0) }.map { name($0, console) }
        return [
            "id": module.id, "name": name(module, console), "summary": module.summary.text(in: console.language),
            "version": module.version.description, "on": on, "turn": on ? "off" : "on",
            "state": localizer(on ? "console.modules.on" : "console.modules.off"),
            "needs": needs.isEmpty ? "" : localizer("console.modules.needs", ["module": name(module, console), "modules": list(needs, console)]),
            "usedBy": users.isEmpty || !on ? "" : localizer("console.modules.used-by", ["modules": list(users, console)]),
            "missing": missing.isEmpty || on ? "" : localizer("console.modules.switch-on-first", ["modules": list(missing, console)]),
            "switchable": module.contributedConsoleIdentity == nil,
            "locked": module.contributedConsoleIdentity == nil ? "" : localizer("console.modules.identity-locked"),
            "action": localizer(on ? "console.modules.switch-off" : "console.modules.switch-on", ["module": name(module, console)]),
        ]
    }

    private func name(_ module: any AppModule, _ console: ConsoleRequest) -> String {
        module.name.text(in: console.language)
    }

    private func list(_ names: [String], _ console: ConsoleRequest) -> String {
        names.joined(separator: console.language == .ar ? "، " : ", ")
    }
}
