import Core
import Foundation

/// The host as a library, so a package outside this repository can build its own `hogwarts`:
/// the built-in modules plus its own, through the same command line, server and console.
///
///     HogwartsHost.main(modules: HogwartsHost.builtIn + [ClubsModule()])
public enum HogwartsHost {
    /// Every feature module this package builds (generated from Package.swift's module table).
    public static var builtIn: [any AppModule] { builtInModules }

    /// Runs the command line (`serve`, `migrate`, every module's commands) over `modules`, plus
    /// the loadable modules of `--modules-dir DIR` or `HOGWARTS_MODULES_DIR`, and exits. A
    /// loadable that is refused stops the start with its sentence and exit status 78 (EX_CONFIG).
    public static func main(modules: [any AppModule]) -> Never {
        var arguments = Array(CommandLine.arguments.dropFirst())
        let environment = ProcessInfo.processInfo.environment
        let directory = ModulesDirectory.take(from: &arguments) ?? environment["HOGWARTS_MODULES_DIR"].flatMap { $0.isEmpty ? nil : $0 }
        var all = modules
        if let directory {
            do {
                all += try LoadableModules.load(from: directory, beside: modules)
            } catch {
                let text = error.sentence.text(in: Language.resolve(arguments: arguments, environment: environment), error.values)
                FileHandle.standardError.write(Data("hogwarts: \(text)\n".utf8))
                exit(ExitStatus.configuration.rawValue)
            }
        }
        HogwartsCommandLine.main(modules: all, arguments: arguments)
    }
}

/// `--modules-dir DIR` (or `--modules-dir=DIR`), anywhere on the command line: taken out before
/// the commands parse theirs, since it decides which commands exist.
enum ModulesDirectory {
    static func take(from arguments: inout [String]) -> String? {
        var found: String?
        var kept: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--modules-dir", index + 1 < arguments.count {
                found = arguments[index + 1]
                index += 2
                continue
            }
            if argument.hasPrefix("--modules-dir=") {
                found = String(argument.dropFirst("--modules-dir=".count))
            } else {
                kept.append(argument)
            }
            index += 1
        }
        arguments = kept
        return found
    }
}
