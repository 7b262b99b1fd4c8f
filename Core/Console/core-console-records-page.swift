import Foundation
import HogwartsBase
import HogwartsKernel

/// The pages of a `ConsoleRecords`: the list (`?search=`, `?page=`), a record's page (`?id=`)
/// and, posted, the form that adds one. A refused form comes back with what was typed and each
/// problem beside its field; nothing is saved.
struct ConsoleRecordsPage {
    static let pageSize = 25

    let records: ConsoleRecords
    let console: ConsoleRequest

    func answer() async throws -> ConsoleResponse {
        guard console.isPost else {
            guard let id = console.query["id"] else { return try await list(typed: nil, problems: [:]) }
            let saved = console.query["done"] == "saved" ? records.edit.map { console.say($0.done) } ?? "" : ""
            return try await record(try await row(id), notice: saved)
        }
        switch console.form.value("do") ?? "add" {
        case "edit":
            guard let form = records.edit, console.may(form.permission) else { throw ConsoleProblem.forbidden }
            let row = try await row(console.form.value("id") ?? "")
            let (typed, problems) = try await submit(form, fixed: [form.key: .text(row.id)])
            if problems.isEmpty { return .redirect(ConsoleForm.path(console.path, query: [("id", row.id), ("done", "saved")])) }
            return try await record(row, typed: typed, problems: problems)
        case "remove":
            guard let removal = records.remove, console.may(removal.permission) else { throw ConsoleProblem.forbidden }
            let row = try await row(console.form.value("id") ?? "")
            // The first press only asks, saying what removing does.
            guard console.form.value("confirm") == "yes" else { return try await record(row, asking: true) }
            do {
                try await removal.run(console, row.id)
                return .redirect(ConsoleForm.path(console.path, query: [("done", "removed")]))
            } catch let error where !(error is CancellationError) {
                return try await record(row, removalProblem: console.message(for: error))
            }
        default:
            // A form is posted only to add; one who may not add is refused, as the kernel would.
            guard let form = records.create, console.may(form.permission) else { throw ConsoleProblem.forbidden }
            let (typed, problems) = try await submit(form, fixed: [:])
            if problems.isEmpty { return .redirect(ConsoleForm.path(console.path, query: [("done", "added")])) }
            return try await list(typed: typed, problems: problems)
        }
    }

    /// The record with this id among those the person may list; any other is not found.
    func row(_ id: String) async throws -> ConsoleRecordRow {
        guard !id.isEmpty, let row = try await records.list(console).first(where: { $0.id == id }) else { throw ConsoleProblem.notFound }
        return row
    }

    /// Runs the form's action; the problems by field name (`""` for one said above the form).
    /// `fixed` are values the person does not type (the edited record's id).
    private func submit(_ form: ConsoleRecordForm, fixed: [String: ConsoleRecordInput.Value]) async throws
        -> (typed: [String: String], problems: [String: String]) {
        var typed: [String: String] = [:]
        var values = fixed
        var problems: [String: String] = [:]
        for field in form.fields {
            let text = console.form.value(field.name).map { String($0.prefix(TextLimit.body)) }
            typed[field.name] = text ?? ""
            if let problem = ConsoleRecordInput.read(field, text, into: &values) { problems[field.name] = console.say(problem) }
        }
        guard problems.isEmpty else { return (typed, problems) }
        do {
            try await runLeavingEmptyOut(form, values)
            return (typed, [:])
        } catch let error as DecodingError {
            // A value the input needs was left empty, or is not one it takes (a choice no longer offered).
            let field = ConsoleRecordInput.fieldName(of: error).flatMap { name in form.fields.first { ConsoleRecordInput.names(name, $0.name) } }
            let missing = if case .keyNotFound = error { true } else { false }
            return (typed, [field?.name ?? "": console.say(missing ? ConsoleRecordWords.fillIn : ConsoleRecordWords.notValid)])
        } catch let error where !(error is CancellationError) {
            // The action's own refusal, beside the field it names (its `field` or `column`), or
            // else beside the one field whose typed value it quotes (a time that is not one).
            let arguments = (error as? any HogwartsError)?.messageArguments ?? [:]
            let named = [arguments["field"], arguments["column"]].compactMap { $0 }
            let quoted = form.fields.filter { field in typed[field.name].map { !$0.isEmpty && arguments.values.contains($0) } ?? false }
            let field = form.fields.first { field in named.contains { ConsoleRecordInput.names($0, field.name) } }
                ?? (named.isEmpty && quoted.count == 1 ? quoted.first : nil)
            return (typed, [field?.name ?? "": console.message(for: error)])
        }
    }

    /// An empty field the action needs as empty text (a description left blank) is sent as
    /// such; any other missing value is the decoding error the caller shows beside its field.
    /// The form's one-time id makes a second send (a double tap, a reload) return the first
    /// result rather than add the record twice.
    private func runLeavingEmptyOut(_ form: ConsoleRecordForm, _ values: [String: ConsoleRecordInput.Value]) async throws {
        var values = values
        let requestID = console.form.value("request").flatMap(UUID.init(uuidString:)).map { "console.records.\(console.path).\($0.uuidString.lowercased())" }
        for _ in 0...form.fields.count {
            do {
                return try await form.run(console, values, requestID)
            } catch let error as DecodingError {
                guard case .keyNotFound = error, let name = ConsoleRecordInput.fieldName(of: error),
                      let field = form.fields.first(where: { ConsoleRecordInput.names(name, $0.name) }), values[field.name] == nil,
                      !field.required, field.kind.isText else { throw error }
                values[field.name] = .text("")
            }
        }
    }
}
