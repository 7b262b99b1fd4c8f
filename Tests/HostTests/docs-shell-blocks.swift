import Foundation
import HogwartsTestSupport

/// One ```sh or ```bash block of a Markdown file, numbered from 1 among that file's shell blocks.
struct ShellBlock: Sendable {
    let file: String
    let number: Int
    /// The line of its opening fence.
    let line: Int
    let script: String

    var id: String { "\(file)#\(number)" }
    var name: String { "\(file) block \(number) (line \(line))" }

    /// The shell blocks of `markdown`, in order; ```text and other fences are left out.
    static func all(in markdown: String, file: String) -> [ShellBlock] {
        var blocks: [ShellBlock] = []
        var open: (kind: String, line: Int, lines: [String])?
        for (index, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("```") {
                if let fence = open {
                    if fence.kind == "sh" || fence.kind == "bash" {
                        blocks.append(ShellBlock(file: file, number: blocks.count + 1, line: fence.line, script: fence.lines.joined(separator: "\n") + "\n"))
                    }
                    open = nil
                } else {
                    open = (String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces), index + 1, [])
                }
            } else {
                open?.lines.append(String(line))
            }
        }
        return blocks
    }
}

/// Runs shell scripts with `bash -e` the way a reader pastes them, bounded in time, and finds
/// any process a script left running (a `hogwarts serve &` never stopped).
enum ShellRun {
    struct Outcome {
        let status: Int32
        let stdout: String
        let stderr: String
        let timedOut: Bool
        /// Processes still running after the script ended (they are killed).
        let leftovers: [String]
    }

    /// Runs `script` in `folder` with `environment` (and nothing else of this process's), its
    /// output in files beside `scripts`, killing it and its children after `timeout` seconds.
    static func run(_ script: String, named name: String, in folder: URL, scripts: URL, environment: [String: String], timeout: TimeInterval) throws -> Outcome {
        let file = scripts.appending(path: "\(name).sh")
        try script.write(to: file, atomically: true, encoding: .utf8)
        let out = scripts.appending(path: "\(name).out")
        let err = scripts.appending(path: "\(name).err")
        for log in [out, err] { _ = FileManager.default.createFile(atPath: log.path, contents: nil) }
        // Every process the script starts inherits the mark, which is how the leftovers are found.
        let mark = "DOCS_BLOCK_RUN=\(UUID().uuidString)"
        let process = Process()
        process.executableURL = URL(filePath: "/bin/bash")
        // The ERR trap names the command that stopped the script (a `curl -sf` says nothing itself).
        process.arguments = ["-e", "-c", #"trap 'echo "stopped by line $LINENO: $BASH_COMMAND" >&2' ERR; . "$0""#, file.path]
        process.currentDirectoryURL = folder
        var variables = environment
        variables["DOCS_BLOCK_RUN"] = String(mark.dropFirst("DOCS_BLOCK_RUN=".count))
        process.environment = variables
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        // Foundation sees the end of the script only when the processes it left have ended too,
        // so the script's own process is watched instead.
        let pid = process.processIdentifier
        let deadline = Date().addingTimeInterval(timeout)
        while !ended(pid) && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        let timedOut = !ended(pid)
        let killed = kill(marked: mark)
        return Outcome(status: ChildExit.wait(for: process), stdout: text(out), stderr: text(err), timedOut: timedOut, leftovers: timedOut ? [] : killed)
    }

    /// Whether process `pid` has ended: gone, or a zombie not reaped yet.
    private static func ended(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let name = stat.lastIndex(of: ")") else { return true }
        // "pid (command) S ...": the state follows the command's closing parenthesis.
        return stat[stat.index(after: name)...].trimmingCharacters(in: .whitespaces).first == "Z"
    }

    private static func text(_ file: URL) -> String {
        (try? String(contentsOf: file, encoding: .utf8)) ?? ""
    }

    /// Kills every process whose environment holds `mark`; returns their command lines.
    private static func kill(marked mark: String) -> [String] {
        let needle = Data(mark.utf8)
        var killed: [String] = []
        let processes = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for pid in processes.compactMap(Int32.init) where pid != getpid() {
            guard let environment = FileManager.default.contents(atPath: "/proc/\(pid)/environ"), environment.range(of: needle) != nil else { continue }
            let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline").map { String(decoding: $0, as: UTF8.self).replacingOccurrences(of: "\0", with: " ") } ?? ""
            if Glibc.kill(pid, SIGKILL) == 0 { killed.append("\(pid) \(command)") }
        }
        return killed
    }
}
