import Foundation
import HogwartsBase
import HogwartsKernel

/// Where a command's results go: a readable table by default, JSON with `--json`.
/// Only results go to stdout; diagnostics and progress go to stderr.
public struct Output: Sendable {
    public let json: Bool

    public init(json: Bool) { self.json = json }

    /// The one JSON style of every command (and later the HTTP API): snake_case keys (`id`,
    /// `user_id`, `school_id`), ISO 8601 times, enum values as their upper-case names.
    public static func jsonEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return encoder
    }

    /// Prints `value` as JSON, or the table built from it.
    public func emit<T: Encodable>(_ value: T, table: (T) -> TextTable) throws {
        if json {
            print(String(decoding: try Self.jsonEncoder().encode(value), as: UTF8.self))
        } else {
            print(table(value).rendered, terminator: "")
        }
    }

    /// Prints a one-line confirmation, or `value` as JSON.
    public func emit<T: Encodable>(_ value: T, message: (T) -> String) throws {
        try emit(value) { TextTable(lines: [message($0)]) }
    }
}

/// A plain-text table with a header row, columns padded to their widest cell.
public struct TextTable: Sendable {
    public var headers: [String]
    public var rows: [[String]]
    /// A line under the table, such as "page 1 of 3".
    public var footer: String?
    private var plainLines: [String]?

    public init(headers: [String], rows: [[String]]) {
        self.headers = headers
        self.rows = rows
    }

    /// Free text instead of columns.
    public init(lines: [String]) {
        headers = []
        rows = []
        plainLines = lines
    }

    /// The table as text, with control characters in any cell shown, not obeyed: names and
    /// messages come from other people and must not rewrite the reader's terminal.
    public var rendered: String {
        if let plainLines { return plainLines.map { TextInput.printable($0, multiline: true) + "\n" }.joined() }
        let rows = rows.map { $0.map { TextInput.printable($0) } }
        let widths = headers.indices.map { column in
            ([headers[column]] + rows.map { column < $0.count ? $0[column] : "" }).map(\.count).max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                column == cells.count - 1 ? cell : cell + String(repeating: " ", count: max(0, widths[column] - cell.count))
            }.joined(separator: "  ") + "\n"
        }
        let rule = widths.map { String(repeating: "-", count: $0) }
        return line(headers) + line(rule) + rows.map(line).joined() + (footer.map { $0 + "\n" } ?? "")
    }
}

/// Progress of long work on one rewritten stderr line, only when stderr is a terminal.
public enum ProgressLine {
    public static func reporter() -> ProgressReporter? {
        guard isatty(STDERR_FILENO) == 1 else { return nil }
        return { done, total, label in
            let text = done >= total ? "\r\u{1B}[K" : "\r\u{1B}[K[\(done + 1)/\(total)] \(label)"
            FileHandle.standardError.write(Data(text.utf8))
        }
    }
}
