import Foundation
import HogwartsBase
import HogwartsKernel

/// Each module's settings as a form made from its typed definitions (see `ConsoleSettingField`):
/// a new module's settings appear here with no console code. Every value is checked before any
/// is written, and a refused one is marked beside its field.
struct ConsoleSettingsPage {
    let shell: ConsoleShell

    func page(_ console: ConsoleRequest, submitted: (module: ModuleID, values: [String: String], errors: [String: String])? = nil) async throws -> ConsoleResponse {
        try require(console)
        let localizer = console.localizer
        let school = console.school.id
        let states = try await console.offload { kernel in try kernel.settings(for: school) }
        var groups: [[String: Any]] = []
        for module in shell.kernel.registry.modules where console.enabledModules.contains(module.id) {
            let mine: [(state: SettingState, definition: SettingDefinition)] = states.compactMap { state in
                guard let entry = shell.kernel.registry.settingsByKey[state.key], entry.module == module.id else { return nil }
                return (state, entry.definition)
            }
            let shown = mine.filter { ConsoleSettingField.isShown($0.definition) }
            guard !shown.isEmpty else { continue }
            let fields = shown.map { entry -> [String: Any] in
                let key = entry.state.key
                let value = submitted?.module == module.id ? submitted?.values[key] ?? entry.state.value : entry.state.value
                return ConsoleSettingField(definition: entry.definition, console: console)
                    .fields(value: value, isDefault: entry.state.isDefault, error: submitted?.errors[key])
            }
            let name = module.name.text(in: console.language)
            groups.append(["module": module.id, "name": name, "fields": fields, "save": localizer("console.settings.save", ["module": name]),
                           "files": shown.count < mine.count ? localizer("console.settings.files") : ""])
        }
        var notice = ""
        if let saved = console.query["saved"], let module = try? shell.kernel.registry.module(saved) {
            notice = localizer("console.settings.saved", ["module": module.name.text(in: console.language)])
        }
        let body = ConsoleTemplates.settings.render(console.common.merging([
            "groups": groups, "notice": notice, "intro": localizer("console.settings.intro"),
            "error": submitted.map { _ in localizer("console.settings.invalid") } ?? "",
        ]) { $1 })
        return .page(title: localizer("console.settings.title"), body: body)
    }

    func submit(_ console: ConsoleRequest) async throws -> ConsoleResponse {
        try require(console)
        let moduleID = console.form.value("module") ?? ""
        guard console.enabledModules.contains(moduleID) else { throw ConsoleProblem.notFound }
        let registry = shell.kernel.registry
        let school = console.school.id
        let current = try await console.offload { kernel in try kernel.settings(for: school) }
        var values: [String: String] = [:]
        var errors: [String: String] = [:]
        var changes: [(String, String)] = []
        for state in current {
            guard let (owner, definition) = registry.settingsByKey[state.key], owner == moduleID, ConsoleSettingField.isShown(definition),
                  let text = ConsoleSettingField.posted(definition, in: console.form) else { continue }
            values[state.key] = text
            if let problem = ConsoleSettingField(definition: definition, console: console).problem(text) {
                errors[state.key] = problem
            } else if text != state.value {
                changes.append((state.key, text))
            }
        }
        guard errors.isEmpty else { return try await page(console, submitted: (moduleID, values, errors)) }
        let principal = console.principal
        for (key, text) in changes {
            try await console.offload(on: .writes) { kernel in try kernel.setSetting(key, to: text, for: school, by: principal) }
        }
        return .redirect(ConsoleForm.path("/admin/settings", query: [("saved", moduleID)]))
    }

    private func require(_ console: ConsoleRequest) throws {
        guard console.may(KernelPermissions.manageSettings) else { throw ConsoleProblem.forbidden }
    }
}
