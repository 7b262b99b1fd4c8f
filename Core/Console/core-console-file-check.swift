import Foundation
import HogwartsKernel

/// What the pages that take a file share (Students' CSV, OneRoster's zip): the form that checks a
/// chosen file, and the table of what the check found in it, row by row. The page keeps its own
/// words for what the file is and what it holds; these are the same on every such page.
public enum ConsoleFileCheck {
    public enum Words {
        public static let check = LocalizedText(ar: "افحص الملف", en: "Check the file")
        public static let file = LocalizedText(ar: "الملف", en: "File")
        public static let row = LocalizedText(ar: "الصف", en: "Row")
        public static let column = LocalizedText(ar: "العمود", en: "Column")
        public static let reason = LocalizedText(ar: "المشكلة", en: "Problem")
        public static let other = LocalizedText(ar: "اختر ملفًا آخر", en: "Choose another file")
        public static let lost = LocalizedText(
            ar: "لم يصل الملف المفحوص مع الطلب، فلم يُكتب شيء. اختر الملف وافحصه مرة أخرى.",
            en: "The checked file did not come with the request, so nothing was written. Choose the file and check it again.")
    }

    /// What a page says about the file: its field's label, the types it takes (`.csv,text/csv`), a
    /// hint under the field, and where Cancel goes, if anywhere.
    public struct Field: Sendable {
        public let label: String
        public let accept: String
        public let hint: String
        public let cancel: (path: String, text: String)?

        public init(label: String, accept: String, hint: String, cancel: (path: String, text: String)? = nil) {
            self.label = label
            self.accept = accept
            self.hint = hint
            self.cancel = cancel
        }
    }

    /// One thing the check found: where (the file inside a package, if any; the row and column) and what.
    public struct Finding: Sendable {
        public let file: String?
        public let row: Int
        public let column: String
        public let reason: String

        public init(file: String? = nil, row: Int, column: String, reason: String) {
            self.file = file
            self.row = row
            self.column = column
            self.reason = reason
        }
    }

    /// A file's name as a sentence shows it: short enough for a phone's line.
    public static func shown(_ name: String) -> String {
        let name = name.filter { !$0.isNewline }
        return name.count > 30 ? String(name.prefix(14)) + "…" + String(name.suffix(14)) : name
    }

    /// The checked file a page carried on to its Import step (base64 in a hidden field): nil when it
    /// is missing, empty, not base64, or longer than an upload may be.
    public static func carried(_ text: String?) -> Data? {
        guard let text, text.utf8.count <= ConsoleMultipart.maximumFileSize / 3 * 4 + 4,
              let data = Data(base64Encoded: text), !data.isEmpty else { return nil }
        return data
    }

    /// The form that sends the chosen file to `action` to be checked, under `problem` (a sentence)
    /// and `above` (a table of findings).
    public static func form(_ console: ConsoleRequest, action: String, intro: String, field: Field,
                            problem: String, above: ConsoleHTML? = nil) -> ConsoleHTML {
        formTemplate.render(console.common.merging([
            "above": above ?? ConsoleHTML.text(""), "problem": problem, "action": action, "intro": intro,
            "fileLabel": field.label, "accept": field.accept, "hint": field.hint, "check": console.say(Words.check),
            "cancel": field.cancel?.path ?? "", "cancelText": field.cancel?.text ?? "",
        ]) { $1 })
    }

    /// The findings under `summary`: problems that stop the import (an alert), or what was read
    /// leniently (a hint). `id` names the summary; the table is `id` + `-table`.
    public static func findings(_ console: ConsoleRequest, summary: String, id: String, stopsImport: Bool, _ findings: [Finding]) -> ConsoleHTML {
        let withFile = findings.contains { $0.file != nil }
        return findingsTemplate.render([
            "summary": summary, "id": id, "alert": stopsImport, "withFile": withFile,
            "fileLabel": console.say(Words.file), "rowLabel": console.say(Words.row),
            "columnLabel": console.say(Words.column), "reasonLabel": console.say(Words.reason),
            "findings": findings.map { ["file": $0.file ?? "", "row": String($0.row), "column": $0.column, "reason": $0.reason, "withFile": withFile] as [String: Any] },
        ])
    }

    static let formTemplate = ConsoleTemplate("""
        {{{above}}}
        <p class="lead">{{intro}}</p>
        {{#problem}}<p class="problem" role="alert" id="import-problem">{{problem}}</p>{{/problem}}
        <form method="post" action="{{action}}" enctype="multipart/form-data" class="panel" id="import-form" data-submit-once>
        <input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="step" value="check">
        <div class="field"><label for="import-file">{{fileLabel}}</label>
        <input id="import-file" name="file" type="file" accept="{{accept}}" required aria-describedby="import-file-hint">
        <p class="hint" id="import-file-hint">{{hint}}</p></div>
        <p class="actions"><button type="submit" class="primary">{{check}}</button>{{#cancel}} <a class="button" href="{{cancel}}">{{cancelText}}</a>{{/cancel}}</p>
        </form>
        """)

    static let findingsTemplate = ConsoleTemplate("""
        <p {{#alert}}class="problem" role="alert"{{/alert}}{{^alert}}class="hint"{{/alert}} id="{{id}}">{{summary}}</p>
        <div class="table-wrap" tabindex="0" role="region" aria-labelledby="{{id}}"><table id="{{id}}-table">
        <thead><tr>{{#withFile}}<th scope="col">{{fileLabel}}</th>{{/withFile}}<th scope="col">{{rowLabel}}</th><th scope="col">{{columnLabel}}</th><th scope="col">{{reasonLabel}}</th></tr></thead><tbody>
        {{#findings}}<tr>{{#withFile}}<td><code dir="ltr">{{file}}</code></td>{{/withFile}}<td>{{row}}</td><td><code dir="ltr">{{column}}</code></td><td>{{reason}}</td></tr>{{/findings}}
        </tbody></table></div>
        """)
}
