import Foundation
import HogwartsKernel

/// One setting as a control a person fills in, drawn from its kind: a checkbox for a flag, a
/// day picker for week days, a number with its unit, a choice in the module's words, and a hint
/// in words. The key is only the input's name; what it accepts is never written as a pattern.
struct ConsoleSettingField {
    let definition: SettingDefinition
    let console: ConsoleRequest

    /// File settings are left to whoever runs the server: a path on it means nothing to a school,
    /// and the files beside the database (the database itself, other schools' keys) are no school's to point at.
    static func isShown(_ definition: SettingDefinition) -> Bool { definition.kind != .file }

    /// The stored text a form sends for this setting, nil when the form does not carry it.
    static func posted(_ definition: SettingDefinition, in form: ConsoleForm) -> String? {
        let values = form.values("setting." + definition.fullKey)
        guard !values.isEmpty else { return nil }
        switch definition.kind {
        // A hidden `false` comes first, then the box's `true` when it is ticked.
        case .flag: return values.last
        // A hidden empty value keeps an untouched picker in the form; the ticked days follow.
        case .weekdays: return values.filter { !$0.isEmpty }.sorted { (Int($0) ?? 7) < (Int($1) ?? 7) }.joined(separator: ",")
        default: return values[0].trimmingCharacters(in: .whitespaces)
        }
    }

    /// The template's fields for this setting showing `value`.
    func fields(value: String, isDefault: Bool, error: String?) -> [String: Any] {
        let id = "setting-" + definition.fullKey.replacingOccurrences(of: ".", with: "-")
        let words = [hint(), isDefault ? console.localizer("console.settings.hint.default") : nil].compactMap { $0 }.joined(separator: " ")
        let described = [words.isEmpty ? nil : id + "-hint", error == nil ? nil : id + "-error"].compactMap { $0 }.joined(separator: " ")
        var fields: [String: Any] = [
            "id": id, "name": "setting." + definition.fullKey, "value": value, "label": console.localizer(definition.summaryKey),
            "hint": words, "error": error ?? "", "invalid": error != nil, "describedby": described, "labelled": true,
        ]
        switch definition.kind {
        case .flag:
            fields["flag"] = ["checked": Bool(settingText: value) == true]
            fields["labelled"] = false
        case .weekdays:
            let days = Set(value.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) })
            fields["days"] = ["choices": (0...6).map { ["value": String($0), "day": console.localizer("console.settings.day.\($0)"), "checked": days.contains($0)] as [String: Any] }]
            fields["labelled"] = false
        case .number(let range, _):
            fields["number"] = ["min": range.lowerBound, "max": range.upperBound]
        case .choice(let options):
            fields["select"] = ["choices": options.map { ["value": $0, "label": word(for: $0), "selected": $0 == value] as [String: Any] }]
        case .date: fields["input"] = ["type": "date"]
        case .email: fields["input"] = ["type": "email"]
        case .webAddress: fields["input"] = ["type": "url"]
        case .numbers, .text, .file: fields["input"] = ["type": "text"]
        }
        return fields
    }

    /// What is wrong with `text`, in words beside the field, or nil when the setting takes it.
    func problem(_ text: String) -> String? {
        guard definition.normalize(text) == nil else { return nil }
        let localizer = console.localizer
        if definition.kind == .weekdays && text.isEmpty { return localizer("console.settings.problem.no-day") }
        let refused = text.isEmpty ? localizer("console.settings.problem.empty")
            : localizer("console.settings.problem.value", ["value": ConsoleDates.isolated(TextInput.printable(text))])
        return [refused, hint()].compactMap { $0 }.joined(separator: " ")
    }

    /// What the setting accepts, in words; nil when its control says it all (a checkbox, a choice).
    private func hint() -> String? {
        let localizer = console.localizer
        let accepts: String?
        switch definition.kind {
        case .flag, .choice, .file: accepts = nil
        case .weekdays: accepts = localizer("console.settings.hint.weekdays")
        case .number(let range, let unit):
            let bounds = ["min": String(range.lowerBound), "max": String(range.upperBound)]
            accepts = unit.map { localizer("console.settings.hint.number-unit", bounds.merging(["unit": localizer("console.settings.unit." + $0.rawValue)]) { $1 }) }
                ?? localizer("console.settings.hint.number", bounds)
        case .numbers: accepts = localizer("console.settings.hint.numbers", ["example": ConsoleDates.isolated("3,5,10")])
        case .date: accepts = localizer("console.settings.hint.date", ["example": ConsoleDates.isolated("2026-09-01")])
        case .email: accepts = localizer("console.settings.hint.email", ["example": ConsoleDates.isolated("office@school.example")])
        case .webAddress: accepts = localizer("console.settings.hint.web-address", ["example": ConsoleDates.isolated("https://")])
        case .text: accepts = moduleText(definition.summaryKey + ".hint")
        }
        let optional = definition.kind.mayBeEmpty && definition.normalize("") != nil ? localizer("console.settings.hint.optional") : nil
        let parts = [accepts, optional].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    /// A choice's label from its module (`<module>.setting.<key>.<word>`), else the word itself.
    private func word(for option: String) -> String { moduleText(definition.summaryKey + "." + option) ?? option }

    private func moduleText(_ key: String) -> String? {
        let text = console.localizer(key)
        return text == key ? nil : text
    }
}

extension SettingKind {
    /// Whether "may be left empty" is worth saying: a typed field, not a box, a choice or a number.
    var mayBeEmpty: Bool {
        switch self {
        case .flag, .choice, .weekdays, .number, .file: false
        case .numbers, .date, .email, .webAddress, .text: true
        }
    }
}
