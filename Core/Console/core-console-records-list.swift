import Foundation
import HogwartsKernel

/// The records list, a record's page and the add form's markup.
extension ConsoleRecordsPage {
    /// The list: searched in every column's words, in pages; then the add form for those who may.
    func list(typed: [String: String]?, problems: [String: String]) async throws -> ConsoleResponse {
        let search = String((console.query["search"] ?? "").trimmingCharacters(in: .whitespaces).prefix(TextLimit.name))
        let all = try await records.list(console)
        let found = search.isEmpty ? all : all.filter { row in
            records.columns.contains { row.text($0, console)?.localizedCaseInsensitiveContains(search) == true }
        }
        let pages = max(1, (found.count + Self.pageSize - 1) / Self.pageSize)
        let page = min(max(1, Int(console.query["page"] ?? "") ?? 1), pages)
        let shown = found.dropFirst((page - 1) * Self.pageSize).prefix(Self.pageSize)
        let listed = records.columns.filter(\.listed)
        func link(_ number: Int) -> String {
            ConsoleForm.path(console.path, query: [("search", search), ("page", number == 1 ? "" : String(number))].filter { !$0.1.isEmpty })
        }
        let rows: [[String: Any]] = shown.map { row in
            ["cells": listed.enumerated().map { index, column in
                cell(row, column, href: index == 0 ? ConsoleForm.path(console.path, query: [("id", row.id)]) : "")
            }]
        }
        let first = (page - 1) * Self.pageSize + 1
        var addForm = ConsoleHTML.text("")
        if let create = records.create, console.may(create.permission) {
            addForm = try await form(create, editing: nil, typed: typed ?? [:], problems: problems)
        }
        let done = typed == nil ? console.query["done"] : nil
        let none = all.isEmpty ? console.say(records.empty) : console.say(ConsoleRecordWords.noMatch, ["search": search])
        return .page(title: console.say(records.title), body: ConsoleRecordTemplates.list.render(console.common.merging([
            "intro": console.say(records.intro), "action": console.path,
            "notice": done == "added" ? records.create.map { console.say($0.done) } ?? "" : done == "removed" ? records.remove.map { console.say($0.done) } ?? "" : "",
            "searchLabel": console.say(ConsoleRecordWords.search), "search": search, "find": console.say(ConsoleRecordWords.find),
            "headings": listed.map { ["label": console.say($0.label)] }, "rows": rows, "hasRows": !rows.isEmpty,
            "none": rows.isEmpty ? none : "",
            "count": rows.isEmpty ? "" : console.say(ConsoleRecordWords.count, ["first": String(first), "last": String(first + rows.count - 1),
                                                                                 "total": String(found.count)]),
            "previous": page > 1 ? link(page - 1) : "", "next": page < pages ? link(page + 1) : "",
            "previousText": console.say(ConsoleRecordWords.previous), "nextText": console.say(ConsoleRecordWords.next),
            "pagerLabel": console.say(ConsoleRecordWords.pages),
            "form": addForm,
        ]) { $1 }))
    }

    /// One record's page: every column in words, then (for those who may) its edit form, filled
    /// with its values or with what was typed, and the way to remove it.
    func record(_ row: ConsoleRecordRow, typed: [String: String]? = nil, problems: [String: String] = [:], notice: String = "",
                asking: Bool = false, removalProblem: String = "") async throws -> ConsoleResponse {
        let heading = records.columns.first.flatMap { row.text($0, console) } ?? row.id
        var editForm = ConsoleHTML.text("")
        if let edit = records.edit, console.may(edit.permission) {
            var filled: [String: String] = [:]
            for field in edit.fields {
                let value = row.values[field.name] ?? ""
                if case .checkbox = field.kind { filled[field.name] = value == "true" ? "on" : "" } else { filled[field.name] = value }
            }
            editForm = try await form(edit, editing: row.id, typed: typed ?? filled, problems: problems)
        }
        let removal = records.remove.flatMap { console.may($0.permission) ? $0 : nil }
        return .page(title: heading, body: ConsoleRecordTemplates.record.render(console.common.merging([
            "notice": notice,
            "lines": records.columns.map { column in ["label": console.say(column.label)].merging(cell(row, column, href: "")) { $1 } },
            "back": console.path, "backText": console.say(ConsoleRecordWords.back, ["records": console.say(records.title)]),
            "edit": editForm, "removes": removal != nil, "action": console.path, "id": row.id, "asking": asking,
            "removeText": removal.map { console.say($0.button) } ?? "", "explain": removal.map { console.say($0.explain, ["record": heading]) } ?? "",
            "confirm": removal.map { console.say($0.confirm, ["record": heading]) } ?? "", "removalProblem": removalProblem,
            "cancel": ConsoleForm.path(console.path, query: [("id", row.id)]), "cancelText": console.say(ConsoleRecordWords.cancel),
        ]) { $1 }))
    }

    private func cell(_ row: ConsoleRecordRow, _ column: ConsoleRecordColumn, href: String) -> [String: Any] {
        let text = row.text(column, console)
        return ["text": text ?? "—", "code": column.style == .code && text != nil, "href": href]
    }

    /// The add form (or, `editing` a record, its edit form), with what was typed and the problems.
    private func form(_ form: ConsoleRecordForm, editing recordID: String?, typed: [String: String], problems: [String: String]) async throws -> ConsoleHTML {
        var fields: [[String: Any]] = []
        for field in form.fields {
            let id = "record-" + field.name.replacingOccurrences(of: ".", with: "-").replacingOccurrences(of: "_", with: "-")
            let value = typed[field.name] ?? ""
            var choices: [[String: Any]]?
            var control = ConsoleFormField.Control.input(type: "text")
            var ltr = false
            switch field.kind {
            case .text: break
            case .email: (control, ltr) = (.input(type: "email"), true)
            case .multiline: control = .textarea
            case .date: (control, ltr) = (.input(type: "date"), true)
            case .time: (control, ltr) = (.input(type: "time"), true)
            case .decimal, .integer: (control, ltr) = (.input(type: "text"), true)
            case .checkbox: control = .checkbox
            case .choice(let pairs):
                choices = ConsoleFormField.choices((field.required ? [] : [("", ConsoleRecordWords.none)]) + pairs.map { ($0.value, $0.label) },
                                                   selected: value, console)
            case .lookup(let find):
                let found = try await find(console)
                choices = (field.required ? [] : [["value": "", "label": console.say(ConsoleRecordWords.none), "selected": value.isEmpty]])
                    + found.map { ["value": $0.value, "label": $0.label, "selected": $0.value == value] }
            }
            fields.append(ConsoleFormField.make(id: id, name: field.name, label: console.say(field.label), value: value, control: control,
                                                required: field.required, ltr: ltr, hint: field.hint.map { console.say($0) } ?? "",
                                                problem: problems[field.name] ?? "", choices: choices))
        }
        return ConsoleRecordTemplates.form.render(console.common.merging([
            "action": console.path, "heading": console.say(form.heading), "fields": fields, "submit": console.say(form.submit),
            "request": UUID().uuidString.lowercased(), "editing": recordID ?? "", "formID": recordID == nil ? "record-form" : "record-edit-form",
            "summary": problems[""] ?? (problems.isEmpty ? "" : console.say(ConsoleRecordWords.problem)),
        ]) { $1 })
    }
}

enum ConsoleRecordTemplates {
    static let list = ConsoleTemplate("""
        {{#notice}}<p class="notice" role="status" id="records-notice">{{notice}}</p>{{/notice}}
        <p class="lead">{{intro}}</p>
        <form method="get" action="{{action}}" class="panel actions" id="records-search" role="search">
        <p><label for="records-search-text">{{searchLabel}}</label><input id="records-search-text" name="search" type="search" value="{{search}}" maxlength="100"></p>
        <button type="submit">{{find}}</button></form>
        {{#count}}<p class="hint" id="records-count">{{count}}</p>{{/count}}
        {{#none}}<p id="records-none">{{none}}</p>{{/none}}
        {{#hasRows}}<div class="table-wrap" tabindex="0" role="region" aria-labelledby="records-count"><table id="records"><thead><tr>{{#headings}}<th scope="col">{{label}}</th>{{/headings}}</tr></thead><tbody>
        {{#rows}}<tr>{{#cells}}<td>{{#href}}<a href="{{href}}" class="button row-link"><bdi>{{text}}</bdi></a>{{/href}}{{^href}}{{#code}}<bdi dir="ltr">{{text}}</bdi>{{/code}}{{^code}}<bdi>{{text}}</bdi>{{/code}}{{/href}}</td>{{/cells}}</tr>{{/rows}}
        </tbody></table></div>{{/hasRows}}
        <nav class="pager" aria-label="{{pagerLabel}}">{{#previous}}<a href="{{previous}}" rel="prev" class="button">{{previousText}}</a> {{/previous}}{{#next}}<a href="{{next}}" rel="next" class="button">{{nextText}}</a>{{/next}}</nav>
        {{{form}}}
        """)

    static let record = ConsoleTemplate("""
        {{#notice}}<p class="notice" role="status" id="records-notice">{{notice}}</p>{{/notice}}
        <dl class="panel" id="record">{{#lines}}<dt>{{label}}</dt><dd>{{#code}}<bdi dir="ltr">{{text}}</bdi>{{/code}}{{^code}}<bdi>{{text}}</bdi>{{/code}}</dd>{{/lines}}</dl>
        {{{edit}}}
        {{#removes}}<form method="post" action="{{action}}" class="panel" id="record-remove" data-submit-once{{#asking}} role="alertdialog" aria-labelledby="record-remove-explain"{{/asking}}>
        <input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="do" value="remove"><input type="hidden" name="id" value="{{id}}">
        {{#removalProblem}}<p class="problem" role="alert" id="record-remove-problem">{{removalProblem}}</p>{{/removalProblem}}
        {{#asking}}<p id="record-remove-explain"><strong>{{explain}}</strong></p><input type="hidden" name="confirm" value="yes">
        <p class="actions"><button type="submit" class="danger">{{confirm}}</button> <a class="button" href="{{cancel}}">{{cancelText}}</a></p>{{/asking}}
        {{^asking}}<button type="submit">{{removeText}}</button>{{/asking}}</form>{{/removes}}
        <p><a href="{{back}}" class="button">{{backText}}</a></p>
        """)

    static let form = ConsoleTemplate("""
        <form method="post" action="{{action}}" class="panel" id="{{formID}}" data-submit-once aria-labelledby="{{formID}}-heading" novalidate>
        <h2 id="{{formID}}-heading">{{heading}}</h2>
        <input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="request" value="{{request}}">
        {{#editing}}<input type="hidden" name="do" value="edit"><input type="hidden" name="id" value="{{editing}}">{{/editing}}
        {{#summary}}<p class="problem" role="alert" id="record-problems">{{summary}}</p>{{/summary}}
        \(ConsoleFormField.markup)
        <button type="submit" class="primary">{{submit}}</button></form>
        """)
}
