import ArgumentParser
import Foundation
import HogwartsBase
import HogwartsKernel

/// argument-parser's own errors ("Unknown option", "Missing expected argument", ...) in the
/// user's language. Its errors are not public types, only their English text is, so each known
/// sentence is matched and re-said from the catalog; a sentence not matched (a command's own
/// `ValidationError`, already localized) is kept as it is.
package enum ArgumentErrors {
    /// An error of the command line's shape, printed like every other error.
    package struct Localized: HogwartsError {
        package let messageKey: String
        package let messageArguments: [String: String]
        package var exitStatus: ExitStatus { .usage }
    }

    /// What to print for a parse error: the reason, the usage line and where help is, each
    /// localized; nil for help, version and completion requests, which argument-parser prints.
    static func report(_ error: any Error, arguments: [String], root: any ParsableCommand.Type, localizer: Localizer) -> String? {
        guard !root.exitCode(for: error).isSuccess else { return nil }
        let full = root.fullMessage(for: error, columns: 100)
        var helpCommand = seeHelpCommand(in: full) ?? root._commandName
        let reason: String
        if let unknown = CommandSuggestion.unknownCommand(in: arguments, root: root) {
            helpCommand = unknown.path
            reason = localizer.message(for: unknown.suggestion.map {
                Localized(messageKey: "kernel.argument-error.unknown-command-suggestion", messageArguments: ["command": unknown.word, "suggestion": $0])
            } ?? Localized(messageKey: "kernel.argument-error.unknown-command", messageArguments: ["command": unknown.word, "parent": unknown.path]))
        } else {
            let message = root.message(for: error)
            reason = translated(message).map(localizer.message(for:)) ?? message
        }
        var lines = [reason]
        if let usage = usage(in: full) { lines.append(localizer("kernel.argument-error.usage", ["usage": usage])) }
        lines.append(localizer("kernel.argument-error.see-help", ["command": helpCommand]))
        return lines.joined(separator: "\n")
    }

    /// argument-parser's sentence as a catalog message, or nil when it is not one of its own.
    package static func translated(_ message: String) -> Localized? {
        func localized(_ key: String, _ arguments: [String: String] = [:]) -> Localized {
            Localized(messageKey: "kernel.argument-error.\(key)", messageArguments: arguments)
        }
        if let match = message.wholeMatch(of: /Unknown option '(.+)'\. Did you mean '(.+)'\?/) {
            return localized("unknown-option-suggestion", ["option": String(match.1), "suggestion": String(match.2)])
        }
        if let match = message.wholeMatch(of: /Unknown option '(.+)'/) {
            return localized("unknown-option", ["option": String(match.1)])
        }
        if let match = message.wholeMatch(of: /Missing value for '(.+)'/) {
            return localized("missing-value", ["option": String(match.1)])
        }
        if let match = message.wholeMatch(of: /The option '(.+)' does not take any value, but '(.*)' was specified\./) {
            return localized("takes-no-value", ["option": String(match.1), "value": String(match.2)])
        }
        if let match = message.wholeMatch(of: /Unexpected argument '(.*)'/) {
            return localized("unexpected-argument", ["argument": String(match.1)])
        }
        if let match = message.wholeMatch(of: /[0-9]+ unexpected arguments: '(.*)'/) {
            return localized("unexpected-arguments", ["arguments": String(match.1)])
        }
        if let match = message.wholeMatch(of: /Missing expected argument '(.+)'/) {
            return localized("missing-argument", ["argument": String(match.1)])
        }
        if let match = message.wholeMatch(of: /Missing one of: '(.+)'/) {
            return localized("missing-one-of", ["choices": String(match.1)])
        }
        if let match = message.wholeMatch(of: /The value '(.*)' is invalid for '([^']+)'(?s:.*)/) {
            return localized("invalid-value", ["value": String(match.1), "option": String(match.2)])
        }
        if let match = message.wholeMatch(of: /Invalid option: (.+)/) {
            return localized("unknown-option", ["option": String(match.1)])
        }
        if message == "Missing required subcommand." {
            return localized("missing-subcommand")
        }
        return nil
    }

    /// The synopsis after "Usage: ", its wrapped lines joined.
    static func usage(in full: String) -> String? {
        let lines = full.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("Usage: ") }) else { return nil }
        let rest = lines[(start + 1)...].prefix { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("See '") && !$0.isEmpty }
        return ([String(lines[start].dropFirst("Usage: ".count))] + rest.map { $0.trimmingCharacters(in: .whitespaces) }).joined(separator: " ")
    }

    /// `hogwarts students list` from "See 'hogwarts students list --help' for more information."
    static func seeHelpCommand(in full: String) -> String? {
        full.firstMatch(of: /See '(.+) --help' for more information\./).map { String($0.1) }
    }
}
