import Foundation

/// The pages of a `ConsoleRecords`: the list (`?search=`, `?page=`), a record's page (`?id=`)
/// and, posted, the form that adds one. A refused form comes back with what was typed and each
/// problem beside its field; nothing is saved.
struct ConsoleRecordsPage {
    static let pageSize = 25

    let records: ConsoleRecords
    let console: ConsoleRequest

    func answer() async throws -> ConsoleResponse {
        if console.isPost {
            // A form is posted only to add; one who may not add is refused, as the kernel would.
            guard let form = records.create, console.may(form.permission) else { throw ConsoleProblem.forbidden }
            let (values, problems) = try await submit(form)
            if problems.isEmpty { return .redirect(ConsoleForm.path(console.path, query: [("done", "added")])) }
            return try await list(typed: values, problems: problems)
        }
        if let id = console.query["id"] { return try await record(id) }
        return try await list(typed: nil, problems: [:])
    }

    /// Runs the form's action; the problems by field name (`""` for one said above the form).
    private func submit(_ form: ConsoleRecordForm) async throws -> (typed: [String: String], problems: [String: String]) {
        var typed: [String: String] = [:]
        var values: [String: ConsoleRecordInput.Value] = [:]
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
