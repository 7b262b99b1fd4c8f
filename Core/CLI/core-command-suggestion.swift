import ArgumentParser

/// "Did you mean" for a misspelled command (`hogwarts studnets list`): argument-parser suggests
/// options only, and reports an unknown command as unexpected arguments.
package enum CommandSuggestion {
    /// A word where a command name was expected that names none, with the closest name there
    /// (if any is close) and the command path it was typed under (`hogwarts students`).
    struct Unknown: Equatable {
        let word: String
        let suggestion: String?
        let path: String
    }

    /// Walks the command names at the start of `arguments` down the tree from `root`; nil when
    /// every word names a command (the fault is elsewhere) or an option comes first.
    static func unknownCommand(in arguments: [String], root: any ParsableCommand.Type) -> Unknown? {
        var command = root
        var path = [root._commandName]
        for word in arguments {
            // After an option, a word may be its value: nothing more is known for certain.
            guard !word.hasPrefix("-") else { return nil }
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty, word != "help" else { return nil }
            if let next = subcommands.first(where: { names(of: $0).contains(word) }) {
                command = next
                path.append(next._commandName)
                continue
            }
            let suggestion = closest(to: word, among: subcommands.flatMap(names(of:)))
            // Under a default subcommand the word may be that command's argument: only a near
            // miss of a real name is taken for a typo there.
            if command.configuration.defaultSubcommand != nil && suggestion == nil { return nil }
            return Unknown(word: word, suggestion: suggestion, path: path.joined(separator: " "))
        }
        return nil
    }

    static func names(of command: any ParsableCommand.Type) -> [String] {
        [command._commandName] + command.configuration.aliases
    }

    /// The candidate nearest to `word`, when it is near enough to be a typo of it: at most one
    /// edit for short words, two from five letters on (a swap of two letters counts as one).
    package static func closest(to word: String, among candidates: [String]) -> String? {
        let limit = word.count >= 5 ? 2 : 1
        return candidates
            .map { (name: $0, distance: distance(word.lowercased(), $0.lowercased())) }
            .filter { $0.distance <= limit }
            .min { ($0.distance, $0.name) < ($1.distance, $1.name) }?
            .name
    }

    /// Edits (insert, delete, replace, swap neighbours) that turn `a` into `b`.
    package static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
