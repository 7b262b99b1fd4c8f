import Foundation
import Testing

/// One command of the tree, as `hogwarts --experimental-dump-help` describes it.
struct CommandNode {
    let path: [String]
    let optionNames: [String]
    let children: [CommandNode]

    init(_ json: [String: Any], path: [String]) {
        self.path = path
        let arguments = json["arguments"] as? [[String: Any]] ?? []
        optionNames = arguments.flatMap { argument in
            (argument["names"] as? [[String: Any]] ?? []).compactMap { name in
                guard let kind = name["kind"] as? String, let text = name["name"] as? String else { return nil }
                return kind == "long" ? "--\(text)" : "-\(text)"
            }
        }
        children = (json["subcommands"] as? [[String: Any]] ?? []).compactMap { child in
            guard let name = child["commandName"] as? String, name != "help" else { return nil }
            return CommandNode(child, path: path + [name])
        }
    }

    var all: [CommandNode] { [self] + children.flatMap(\.all) }
}

/// Walks every command the binary has, so an option clash or a broken command cannot land
/// unseen again (`attendance stats --school` once failed in every build).
@Suite("The command tree", .waitsOnProcesses)
struct CommandTreeTests {
    static func tree() throws -> CommandNode {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        // In a debug build this runs argument-parser's own validation of every command, and
        // fails (non-zero, a report on stderr) on a clash.
        let dump = try hogwarts.run(["--experimental-dump-help"])
        #expect(dump.status == 0, "argument-parser refused the command tree: \(dump.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        return CommandNode(try #require(json["command"] as? [String: Any]), path: [])
    }

    @Test("no command declares the same option twice, in debug and release builds alike")
    func uniqueOptionNames() throws {
        let commands = try Self.tree().all
        #expect(commands.count > 60, "the walk found the whole tree (\(commands.count) commands)")
        for command in commands {
            var seen = Set<String>()
            let clashes = command.optionNames.filter { !seen.insert($0).inserted }
            #expect(clashes.isEmpty, "hogwarts \(command.path.joined(separator: " ")) declares \(clashes) twice")
        }
    }

    @Test("every command's help prints in both languages and exits 0")
    func everyHelp() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        for command in try Self.tree().all {
            for language in ["ar", "en"] {
                let help = try hogwarts.run(command.path + ["--help", "--lang", language])
                #expect(help.status == 0, "hogwarts \(command.path.joined(separator: " ")) --help --lang \(language): \(help.stderr)")
                #expect(help.stdout.contains("USAGE") || help.stdout.contains("usage"), "\(command.path)")
            }
        }
    }

    @Test("shell completion scripts are generated for bash, zsh and fish")
    func completion() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        for shell in ["bash", "zsh", "fish"] {
            let script = try hogwarts.run(["--generate-completion-script", shell])
            #expect(script.status == 0, "\(shell): \(script.stderr)")
            #expect(script.stdout.contains("attendance"), "\(shell) completes module commands")
        }
    }
}
