import Core

/// One field of the student pages' forms (enrolment, a student's details, a guardian's link):
/// its label, an input or a select, a hint, and the problem beside it, described for screen
/// readers. One builder and one markup, so the three forms show a field the same way.
extension StudentsConsole {
    enum FormField {
        /// The markup of a `fields` list, to put inside a form's template.
        static let markup = """
            {{#fields}}<div class="field{{#problem}} invalid{{/problem}}"><label for="{{id}}">{{label}}</label>
            {{#select}}<select id="{{id}}" name="{{name}}"{{#required}} required{{/required}}{{#describedby}} aria-describedby="{{describedby}}"{{/describedby}}{{#problem}} aria-invalid="true"{{/problem}}>{{#choices}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/choices}}</select>{{/select}}
            {{^select}}<input id="{{id}}" name="{{name}}" type="{{type}}" value="{{value}}" autocomplete="{{autocomplete}}"{{#ltr}} dir="ltr"{{/ltr}}{{#required}} required{{/required}}{{#describedby}} aria-describedby="{{describedby}}"{{/describedby}}{{#problem}} aria-invalid="true"{{/problem}}>{{/select}}
            {{#hint}}<p class="hint" id="{{id}}-hint">{{hint}}</p>{{/hint}}
            {{#problem}}<p class="problem" id="{{id}}-problem">{{problem}}</p>{{/problem}}
            </div>{{/fields}}
            """

        /// A field's values for `markup`; `choices` (from `choices(_:selected:_:)` or `classChoices`) make it a select.
        static func make(id: String, name: String, label: String, value: String, type: String = "text", required: Bool = false,
                         ltr: Bool = false, autocomplete: String = "off", hint: String = "", problem: String = "",
                         choices: [[String: Any]]? = nil) -> [String: Any] {
            let described = [hint.isEmpty ? nil : id + "-hint", problem.isEmpty ? nil : id + "-problem"].compactMap { $0 }.joined(separator: " ")
            return ["id": id, "name": name, "label": label, "type": type, "value": value, "required": required, "ltr": ltr,
                    "autocomplete": autocomplete, "hint": hint, "problem": problem, "describedby": described,
                    "select": choices != nil, "choices": choices ?? []]
        }

        /// A select's choices in words, `selected` chosen.
        static func choices(_ pairs: [(String, LocalizedText)], selected: String, _ console: ConsoleRequest) -> [[String: Any]] {
            pairs.map { ["value": $0.0, "label": console.say($0.1), "selected": selected == $0.0] }
        }
    }
}
