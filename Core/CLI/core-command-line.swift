import ArgumentParser
import Foundation
import HogwartsBase
import HogwartsKernel

/// The `hogwarts` command line: the kernel's commands plus every module's, assembled at start.
public enum HogwartsCommandLine {
    /// Resolves the modules, parses the arguments, runs the command and exits: 0 on success,
    /// otherwise a one-line localized reason on stderr and a sysexits status.
    public static func main(modules: [any AppModule], arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> Never {
        let variables = ProcessInfo.processInfo.environment
        let language = Language.resolve(arguments: arguments, environment: variables)
        let registry: ModuleRegistry
        do {
            registry = try ModuleRegistry(modules)
        } catch {
            fail(error, localizer: Localizer(language: language, catalog: CoreResources.catalog))
        }
        let environment = CommandEnvironment(registry: registry, language: language, variables: variables)
        CommandEnvironment.$installed.withValue(environment) {
            var command: any ParsableCommand
            do {
                command = try RootCommand.parseAsRoot(arguments)
            } catch {
                // argument-parser's own sentences are English: said again in the user's language.
                guard let report = ArgumentErrors.report(error, arguments: arguments, root: RootCommand.self, localizer: environment.localizer) else {
                    RootCommand.exit(withError: error)
                }
                failWithText(report, status: RootCommand.exitCode(for: error).rawValue)
            }
            do {
                try command.run()
            } catch let error as any HogwartsError {
                fail(error, localizer: environment.localizer)
            } catch {
                RootCommand.exit(withError: error)
            }
        }
        exit(0)
    }

    private static func fail(_ error: any Error, localizer: Localizer) -> Never {
        failWithText(localizer.message(for: error), status: (error as? any HogwartsError)?.exitStatus.rawValue ?? ExitStatus.failure.rawValue)
    }

    private static func failWithText(_ text: String, status: Int32) -> Never {
        FileHandle.standardError.write(Data("hogwarts: \(TextInput.printable(text, multiline: true))\n".utf8))
        exit(status)
    }
}

struct RootCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "hogwarts",
            abstract: L("kernel.cli.abstract"),
            version: PlatformVersion.current.description,
            subcommands: KernelCommands.all + CommandEnvironment.current.registry.modules.flatMap(\.contributedCommands))
    }
}

enum KernelCommands {
    static let all: [any ParsableCommand.Type] = [
        DemoCommand.self, MigrateCommand.self, ConfigCommand.self, ModulesCommand.self,
        SettingsCommand.self, AuditCommand.self, BackupCommand.self, RestoreCommand.self, CheckCommand.self,
        ServeCommand.self, KeysCommand.self,
    ]
}
