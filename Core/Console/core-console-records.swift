import Foundation
import HogwartsKernel

/// A module's records laid out by the console, in the manner of Django's admin: a list with a
/// search and pages, each record's own page, and a form that adds one. The module declares only
/// which of its actions list and add, the columns to show and the fields to ask for; the console
/// builds the pages. Every read and write goes through `ConsoleRequest.run`, so the kernel checks
/// the permission and the scope, validates, audits and raises events exactly as for the CLI and
/// the API, and a refusal is shown beside the field it names.
public struct ConsoleRecords: Sendable {
    public let path: String
    public let title: LocalizedText
    /// One sentence under the title: what these records are for.
    public let intro: LocalizedText
    /// Words for an empty list, with no search.
    public let empty: LocalizedText
    public let columns: [ConsoleRecordColumn]
    let permission: Permission
    let scopes: Set<AccessScope>?
    let list: @Sendable (ConsoleRequest) async throws -> [ConsoleRecordRow]
    let create: ConsoleRecordForm?
    let edit: ConsoleRecordForm?
    let remove: ConsoleRecordRemoval?

    /// Records listed by `action`, whose output is an array of records (or, with `at`, holds one
    /// under that key); `input` makes its input for the request. Each record needs an `id`. The
    /// page is in the menu of those who hold `permission` (the list action's when nil) with
    /// one of `scopes`: records every role may read, but only the office keeps, name the office's.
    /// `edit` is shown on a record's page, filled with its values; `remove` there too, asking first.
    public init<A: Action>(_ path: String, title: LocalizedText, intro: LocalizedText, empty: LocalizedText, list action: A.Type,
                           input: @escaping @Sendable (ConsoleRequest) -> A.Input, at key: String? = nil, permission: Permission? = nil,
                           scopes: Set<AccessScope>? = nil, columns: [ConsoleRecordColumn], create: ConsoleRecordForm? = nil,
                           edit: ConsoleRecordForm? = nil, remove: ConsoleRecordRemoval? = nil) {
        self.path = path
        self.title = title
        self.intro = intro
        self.empty = empty
        self.columns = columns
        self.permission = permission ?? A.permission
        self.scopes = scopes
        self.create = create
        self.edit = edit
        self.remove = remove
        list = { console in
            let output = try await console.run(A.self, input(console))
            return try ConsoleRecordRow.rows(of: output, at: key)
        }
    }

    /// The page the module lists among its `consolePages`.
    public var page: ConsolePage {
        ConsolePage(path, title: title, permission: permission, scopes: scopes) { console in
            try await ConsoleRecordsPage(records: self, console: console).answer()
        }
    }
}

/// A column of the list and a line of a record's page: the value under `key` (dotted for a
/// nested value, `assessment.title`), in the words of the school's language where the value is
/// a text in both languages or one of `words`.
public struct ConsoleRecordColumn: Sendable {
    public enum Style: Sendable {
        /// Text in the page's direction.
        case text
        /// A code, a day, a time or a number: left to right and isolated, so Arabic never turns it around.
        case code
    }

    public let key: String
    public let label: LocalizedText
    public let style: Style
    /// Words for coded values (`QUIZ` → "Quiz"); a value without words shows as it is.
    public let words: [String: LocalizedText]
    /// Whether the list shows it (a record's page shows every column).
    public let listed: Bool

    public init(_ key: String, _ label: LocalizedText, style: Style = .text, words: [String: LocalizedText] = [:], listed: Bool = true) {
        self.key = key
        self.label = label
        self.style = style
        self.words = words
        self.listed = listed
    }
}

/// The form that adds (or edits) a record by running `action`: its fields, named as the
/// action's input names them in snake case (`starts_at`; `name.ar` for a value inside another).
/// An edit's input also gets the record's id under `key`.
public struct ConsoleRecordForm: Sendable {
    public let heading: LocalizedText
    public let submit: LocalizedText
    /// Said once the record is added or saved.
    public let done: LocalizedText
    public let fields: [ConsoleRecordField]
    let key: String
    let permission: Permission
    let run: @Sendable (ConsoleRequest, [String: ConsoleRecordInput.Value], _ requestID: String?) async throws -> Void

    public init<A: Action>(_ action: A.Type, heading: LocalizedText, submit: LocalizedText, done: LocalizedText, key: String = "id",
                           fields: [ConsoleRecordField]) {
        self.heading = heading
        self.submit = submit
        self.done = done
        self.fields = fields
        self.key = key
        permission = A.permission
        run = { console, values, requestID in
            let input = try ConsoleRecordInput.decode(A.Input.self, from: values)
            _ = try await console.run(A.self, input, requestID: requestID)
        }
    }
}

/// Taking a record out by running `action` with its id under `key`, after a second press that
/// says what it does (`explain`).
public struct ConsoleRecordRemoval: Sendable {
    public let button: LocalizedText
    public let explain: LocalizedText
    public let confirm: LocalizedText
    /// Said above the list once it is done.
    public let done: LocalizedText
    let permission: Permission
    let run: @Sendable (ConsoleRequest, String) async throws -> Void

    public init<A: Action>(_ action: A.Type, button: LocalizedText, explain: LocalizedText, confirm: LocalizedText, done: LocalizedText,
                           key: String = "id") {
        self.button = button
        self.explain = explain
        self.confirm = confirm
        self.done = done
        permission = A.permission
        run = { console, id in
            let input = try ConsoleRecordInput.decode(A.Input.self, from: [key: .text(id)])
            _ = try await console.run(A.self, input)
        }
    }
}

/// One field of a record form.
public struct ConsoleRecordField: Sendable {
    public enum Kind: Sendable {
        case text, multiline, date, time, email
        /// A number with a fraction allowed (`12.5`).
        case decimal
        case integer
        /// A box to tick: true when ticked.
        case checkbox
        /// One of fixed values, each in words.
        case choice([(value: String, label: LocalizedText)])
        /// One of values the page looks up for the person (their classes), each in words.
        case lookup(@Sendable (ConsoleRequest) async throws -> [(value: String, label: String)])
    }

    public let name: String
    public let label: LocalizedText
    public let kind: Kind
    public let required: Bool
    public let hint: LocalizedText?

    /// `required` false: left empty, the field is not sent, and the action takes its default.
    public init(_ name: String, _ label: LocalizedText, _ kind: Kind = .text, required: Bool = true, hint: LocalizedText? = nil) {
        self.name = name
        self.label = label
        self.kind = kind
        self.required = required
        self.hint = hint
    }
}

extension ConsoleRecordField.Kind {
    /// Whether the field is typed as text (an empty one may be sent as empty text).
    var isText: Bool {
        switch self {
        case .text, .multiline, .email: true
        default: false
        }
    }
}
