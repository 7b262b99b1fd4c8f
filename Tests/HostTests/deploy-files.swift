import Foundation

/// The files of `deploy/` as the tests read them: the systemd units, copied with the built
/// binary in place of `/usr/local/bin/hogwarts` (`systemd-analyze verify` checks that the
/// command exists), and the environment file's variables.
enum DeployFiles {
    static let folder = HogwartsProcess.packageRoot.appending(path: "deploy")
    static let units = ["hogwarts.service", "hogwarts-backup.service", "hogwarts-backup.timer"]
    static let installedBinary = "/usr/local/bin/hogwarts"

    /// A program on the PATH (or in /usr/bin, /bin), nil when there is none.
    static func program(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return (path.split(separator: ":").map(String.init) + ["/usr/bin", "/bin"])
            .map { "\($0)/\(name)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The units in a temporary folder, each `/usr/local/bin/hogwarts` replaced by `binary`.
    static func unitsCopy(binary: URL = HogwartsProcess.binary) throws -> URL {
        let copy = FileManager.default.temporaryDirectory.appending(path: "hogwarts-units-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        for unit in units {
            let text = try String(contentsOf: folder.appending(path: "systemd/\(unit)"), encoding: .utf8)
            try text.replacingOccurrences(of: installedBinary, with: binary.path)
                .write(to: copy.appending(path: unit), atomically: true, encoding: .utf8)
        }
        return copy
    }

    /// One `NAME=value` line of `deploy/hogwarts.env`; `active` is false for a commented-out one.
    struct Variable {
        let name: String
        let value: String
        let active: Bool
        /// The comment lines above it (and above the variables it shares them with).
        let comment: String
    }

    /// Every variable of the environment file, in order.
    static func environmentFile() throws -> [Variable] {
        let lines = try String(contentsOf: folder.appending(path: "hogwarts.env"), encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        var variables: [Variable] = []
        var comment: [String] = []
        var commentEnded = false
        for raw in lines {
            let line = raw.trimmingCharacters(in: .whitespaces)
            let assignment = line.hasPrefix("#") ? String(line.dropFirst()) : line
            if let equals = assignment.firstIndex(of: "="), assignment.hasPrefix("HOGWARTS_") {
                variables.append(Variable(name: String(assignment[..<equals]), value: String(assignment[assignment.index(after: equals)...]),
                                          active: !line.hasPrefix("#"), comment: comment.joined(separator: "\n")))
                commentEnded = true
            } else if line.hasPrefix("#") {
                if commentEnded { comment = [] }
                commentEnded = false
                comment.append(line)
            } else {
                commentEnded = true
            }
        }
        return variables
    }

    /// Every `HOGWARTS_*` name in the platform's sources, but the test suite's own and the C
    /// macros of the loadable-module handshake (`#define HOGWARTS_…` in Drivers' headers).
    static func variablesRead() throws -> Set<String> {
        let testOnly = ["HOGWARTS_BINARY", "HOGWARTS_REQUIRE_API_TOOLS"]
        let macros = try cMacros(under: HogwartsProcess.packageRoot.appending(path: "Drivers"))
        var names: Set<String> = []
        for top in ["Core", "Modules", "Host", "Client", "Drivers"] {
            let root = HogwartsProcess.packageRoot.appending(path: top)
            guard let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { continue }
            for case let file as URL in files where file.pathExtension == "swift" {
                let text = try String(contentsOf: file, encoding: .utf8)
                for match in text.matches(of: #/HOGWARTS_[A-Z0-9_]+/#) {
                    let name = String(match.output)
                    if !name.hasPrefix("HOGWARTS_TEST_") && !testOnly.contains(name) && !macros.contains(name) { names.insert(name) }
                }
            }
        }
        return names
    }

    private static func cMacros(under root: URL) throws -> Set<String> {
        var macros: Set<String> = []
        guard let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return macros }
        for case let file as URL in files where file.pathExtension == "h" {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in text.matches(of: #/#define (HOGWARTS_[A-Z0-9_]+)/#) { macros.insert(String(match.output.1)) }
        }
        return macros
    }
}
