import Foundation

/// Each module's settings as a form made from its typed definitions: a switch for a flag, a
/// choice for a fixed set of words, a number with its bounds, text otherwise. A new module's
/// settings appear here with no console code. Every value is checked before any is written.
struct ConsoleSettingsPage {
    let shell: ConsoleShell

    func page(_ console: ConsoleRequest, submitted: (module: ModuleID, values: [String: String], errors: [String: String])? = nil) async throws -> ConsoleResponse {
        try require(console)
        let localizer = console.localizer
        let school = console.school.id
        let states = try await console.offload { kernel in try kernel.settings(for: school) }
        var groups: [[String: Any]] = []
        for module in shell.kernel.registry.modules where console.enabledModules.contains(module.id) {
            let mine = states.filter { $0.key.hasPrefix(module.id + ".") }
            guard !mine.isEmpty else { continue }
            let fields = mine.compactMap { state -> [String: Any]? in
                guard let definition = shell.kernel.registry.settingsByKey[state.key]?.definition else { return nil }
                let shown = submitted?.module == module.id ? submitted?.values[state.key] ?? state.value : state.value
                return field(definition, value: shown, isDefault: state.isDefault, error: submitted?.errors[state.key], console)
            }
            groups.append(["module": module.id, "name": module.name.text(in: console.language), "fields": fields,
                           "save": localizer("console.settings.save", ["module": module.name.text(in: console.language)])])
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
        for state in current where state.key.hasPrefix(moduleID + ".") {
            guard let given = console.form.value("setting." + state.key), let definition = registry.settingsByKey[state.key]?.definition else { continue }
            let text = given.trimmingCharacters(in: .whitespaces)
            values[state.key] = text
            if let problem = problem(definition, text, console) {
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

    /// What is wrong with a value, in words, or nil: the definition's own check, and for a file
    /// the kernel's rule that it stays beside the database (the console never forces it).
    private func problem(_ definition: SettingDefinition, _ text: String, _ console: ConsoleRequest) -> String? {
        guard let normalized = definition.normalize(text) else {
            return console.message(for: KernelError.invalidSetting(key: definition.fullKey, value: TextInput.printable(text), reason: definition.expected))
        }
        if definition.isFilePath {
            let folder = shell.kernel.databaseFolder
            let target = SettingsReader.resolve(normalized, in: folder)
            if !target.path.hasPrefix(folder.path + "/") {
                return console.message(for: KernelError.settingPathOutside(key: definition.fullKey, path: target.path, folder: folder.path))
            }
        }
        return nil
    }

    private func require(_ console: ConsoleRequest) throws {
        guard console.may(KernelPermissions.manageSettings) else { throw ConsoleProblem.forbidden }
    }

    /// The control a definition calls for, read from what it expects (`true|false`, `a|b`, `1-60`).
    private func field(_ definition: SettingDefinition, value: String, isDefault: Bool, error: String?, _ console: ConsoleRequest) -> [String: Any] {
        let localizer = console.localizer
        let id = "setting-" + definition.fullKey.replacingOccurrences(of: ".", with: "-")
        var field: [String: Any] = [
            "id": id, "name": "setting." + definition.fullKey, "key": definition.fullKey, "value": value,
            "label": localizer(definition.summaryKey), "error": error ?? "", "invalid": error != nil,
            "hint": localizer(isDefault ? "console.settings.default" : "console.settings.expected"), "expected": definition.expected,
        ]
        let options = definition.expected.split(separator: "|").map(String.init)
        let bounds = definition.expected.split(separator: "-").compactMap { Int($0) }
        if definition.expected == "true|false" {
            field["select"] = true
            field["choices"] = [("true", localizer("console.settings.yes")), ("false", localizer("console.settings.no"))].map { ["value": $0.0, "label": $0.1, "selected": $0.0 == value] }
        } else if options.count > 1 {
            field["select"] = true
            field["choices"] = options.map { ["value": $0, "label": $0, "selected": $0 == value] }
        } else if bounds.count == 2, !definition.expected.hasPrefix("-") {
            field["number"] = ["min": bounds[0], "max": bounds[1]]
        } else {
            field["text"] = true
        }
        return field
    }
}
