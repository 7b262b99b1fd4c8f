import Foundation
import HogwartsKernel

/// One field of a console form: its label, an input, a select, a text area or a box to tick, a
/// hint, and the problem beside it, described for screen readers. One builder and one markup,
/// so every form shows a field, and a refusal beside it, the same way.
public enum ConsoleFormField {
    /// The markup of a `fields` list, to put inside a form's template.
    public static let markup = """
        {{#fields}}<div class="field{{#problem}} invalid{{/problem}}{{#checkbox}} choices{{/checkbox}}">{{^checkbox}}<label for="{{id}}">{{label}}</label>{{/checkbox}}
        {{#select}}<select id="{{id}}" name="{{name}}"{{#required}} required{{/required}}{{#describedby}} aria-describedby="{{describedby}}"{{/describedby}}{{#problem}} aria-invalid="true"{{/problem}}>{{#choices}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/choices}}</select>{{/select}}
        {{#textarea}}<textarea id="{{id}}" name="{{name}}" rows="4"{{#required}} required{{/required}}{{#describedby}} aria-describedby="{{describedby}}"{{/describedby}}{{#problem}} aria-invalid="true"{{/problem}}>{{value}}</textarea>{{/textarea}}
        {{#checkbox}}<label for="{{id}}"><input id="{{id}}" name="{{name}}" type="checkbox"{{#checked}} checked{{/checked}}{{#describedby}} aria-describedby="{{describedby}}"{{/describedby}}> {{label}}</label>{{/checkbox}}
        {{#plain}}<input id="{{id}}" name="{{name}}" type="{{type}}" value="{{value}}" autocomplete="{{autocomplete}}"{{#step}} step="{{step}}"{{/step}}{{#ltr}} dir="ltr"{{/ltr}}{{#required}} required{{/required}}{{#describedby}} aria-describedby="{{describedby}}"{{/describedby}}{{#problem}} aria-invalid="true"{{/problem}}>{{/plain}}
        {{#hint}}<p class="hint" id="{{id}}-hint">{{hint}}</p>{{/hint}}
        {{#problem}}<p class="problem" id="{{id}}-problem">{{problem}}</p>{{/problem}}
        </div>{{/fields}}
        """

    /// How the field is entered.
    public enum Control: Sendable {
        case input(type: String), textarea, checkbox
    }

    /// A field's values for `markup`; `choices` (from `choices(_:selected:_:)`) make it a select.
    public static func make(id: String, name: String, label: String, value: String, type: String = "text", control: Control? = nil,
                            required: Bool = false, ltr: Bool = false, autocomplete: String = "off", step: String = "",
                            hint: String = "", problem: String = "", choices: [[String: Any]]? = nil) -> [String: Any] {
        let described = [hint.isEmpty ? nil : id + "-hint", problem.isEmpty ? nil : id + "-problem"].compactMap { $0 }.joined(separator: " ")
        let control = control ?? .input(type: type)
        var kind = (select: choices != nil, textarea: false, checkbox: false)
        if choices == nil {
            if case .textarea = control { kind.textarea = true }
            if case .checkbox = control { kind.checkbox = true }
        }
        let inputType = if case .input(let type) = control { type } else { "text" }
        return ["id": id, "name": name, "label": label, "type": inputType, "value": value, "required": required, "ltr": ltr,
                "autocomplete": autocomplete, "step": step, "hint": hint, "problem": problem, "describedby": described,
                "select": kind.select, "textarea": kind.textarea, "checkbox": kind.checkbox, "checked": kind.checkbox && value == "on",
                "plain": !kind.select && !kind.textarea && !kind.checkbox, "choices": choices ?? []]
    }

    /// A select's choices in words, `selected` chosen.
    public static func choices(_ pairs: [(String, LocalizedText)], selected: String, _ console: ConsoleRequest) -> [[String: Any]] {
        pairs.map { ["value": $0.0, "label": console.say($0.1), "selected": selected == $0.0] }
    }
}
