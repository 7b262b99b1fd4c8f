import Foundation
import Testing

/// The platform's one JSON style, as every host test checks it: snake_case keys (`id`,
/// `user_id`) and no Swift internals such as `_0`.
enum PlatformJSON {
    static let keyStyle = #"^[a-z][a-z0-9]*(_[a-z0-9]+)*$"#

    /// Every key of a document, at any depth.
    static func keys(_ value: Any) -> [String] {
        if let object = value as? [String: Any] { return object.keys + object.values.flatMap(keys) }
        if let array = value as? [Any] { return array.flatMap(keys) }
        return []
    }

    /// Every value stored under `key`, at any depth.
    static func values(of key: String, in value: Any) -> [Any] {
        if let object = value as? [String: Any] { return (object[key].map { [$0] } ?? []) + object.values.flatMap { values(of: key, in: $0) } }
        if let array = value as? [Any] { return array.flatMap { values(of: key, in: $0) } }
        return []
    }

    /// Parses `text` and lists every key out of style.
    static func problems(in text: String) throws -> [String] {
        keys(try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]))
            .filter { $0.range(of: keyStyle, options: .regularExpression) == nil }
    }

    /// Records an issue unless `text` is JSON in the platform's style; returns the document.
    @discardableResult
    static func expect(_ text: String, _ command: String, sourceLocation: SourceLocation = #_sourceLocation) -> Any? {
        guard let document = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) else {
            Issue.record("\(command) printed no JSON: \(text.prefix(200))", sourceLocation: sourceLocation)
            return nil
        }
        for key in keys(document) where key.range(of: keyStyle, options: .regularExpression) == nil {
            Issue.record("\(command): key \(key) is not snake_case", sourceLocation: sourceLocation)
        }
        #expect(!text.contains("\"_0\""), "\(command)", sourceLocation: sourceLocation)
        return document
    }

    /// A command that must succeed and print JSON in style; returns the document.
    @discardableResult
    static func check(_ result: HogwartsProcess.Result, _ command: [String], sourceLocation: SourceLocation = #_sourceLocation) -> Any? {
        #expect(result.status == 0, "\(command): \(result.stderr)", sourceLocation: sourceLocation)
        return expect(result.stdout, "\(command)", sourceLocation: sourceLocation)
    }

    /// Runs a command with `--json` (messages in English), which must succeed and print JSON in
    /// style; returns the document. `who` names the signed-in person in a failure.
    @discardableResult
    static func run(_ hogwarts: HogwartsProcess, _ command: [String], as who: String = "",
                    sourceLocation: SourceLocation = #_sourceLocation) throws -> Any? {
        let result = try hogwarts.run(command + ["--json", "--lang", "en"])
        return check(result, who.isEmpty ? command : [who] + command, sourceLocation: sourceLocation)
    }

    /// The first student of a class, as the signed-in user lists them.
    static func firstStudent(of classCode: String, _ hogwarts: HogwartsProcess) throws -> String {
        let list = try hogwarts.run(["students", "list", "--class", classCode, "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any]
        return try #require((object?["students"] as? [[String: Any]])?.first?["gr_number"] as? String)
    }
}
