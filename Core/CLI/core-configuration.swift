import Foundation
import HogwartsKernel
import HogwartsPostgreSQL
import HogwartsHTTP

/// One value `hogwarts` runs with, where it came from, and what is wrong with what was asked for.
/// Worked out with the same functions the commands and the server use, so it cannot drift from them.
public struct ConfigurationValue: Encodable, Sendable {
    public enum Source: String, Encodable, Sendable {
        case flag = "FLAG"
        case environment = "ENVIRONMENT"
        case `default` = "DEFAULT"
    }

    public let name: String
    /// The value in force, with any password masked.
    public let value: String
    public let source: Source
    /// The command-line option that sets it, and the environment variable.
    public let option: String?
    public let variable: String?
    /// Why the environment's value is not used (the default is, instead), or why `serve` would refuse it.
    public let problem: String?
    /// True when `serve` refuses to start with this value, not just ignores it.
    public let refused: Bool
}

/// The effective configuration of this process: the global options, then every variable in Core/.
struct EffectiveConfiguration {
    let global: GlobalOptions
    let school: SchoolOption
    let variables: [String: String]
    /// The command line as typed: an option given with its default value is still the flag's.
    let arguments: [String]

    var values: [ConfigurationValue] {
        [database, language, logLevel, schoolValue, configDirectory, host, port, threads, trustedProxies, consoleSecure, liveInterval, connections] + timeouts
    }

    private var database: ConfigurationValue {
        let raw = global.resolvedDatabasePath
        // Masked whatever the text looks like: a file path has no password and stays as it is.
        return value("database", PostgresEngine.redacted(raw), option: "--database", given: global.databasePath, variable: "HOGWARTS_DATABASE")
    }

    private var language: ConfigurationValue {
        let environment = variables["HOGWARTS_LANG"]
        if global.language == nil, let environment, Language(rawValue: environment.lowercased()) == nil {
            return ignored("language", Language.default.rawValue, option: "--lang", variable: "HOGWARTS_LANG",
                           problem: L("kernel.config.ignored", ["value": environment, "expected": L("kernel.config.language")]))
        }
        let resolved = (global.language ?? environment).flatMap { Language(rawValue: $0.lowercased()) } ?? .default
        return value("language", resolved.rawValue, option: "--lang", given: global.language, variable: "HOGWARTS_LANG")
    }

    private var logLevel: ConfigurationValue {
        ConfigurationValue(name: "log-level", value: global.logLevel.lowercased(), source: given("--log-level") ? .flag : .default,
                           option: "--log-level", variable: nil, problem: nil, refused: false)
    }

    private var schoolValue: ConfigurationValue {
        let fromEnvironment = variables["HOGWARTS_SCHOOL"].flatMap { $0.isEmpty ? nil : $0 }
        let shown = school.requested ?? L("kernel.config.only-school")
        return ConfigurationValue(name: "school", value: shown, source: school.school != nil ? .flag : fromEnvironment != nil ? .environment : .default,
                                  option: "--school", variable: "HOGWARTS_SCHOOL", problem: nil, refused: false)
    }

    private var configDirectory: ConfigurationValue {
        let (url, variable) = ConfigDirectory.resolve(variables)
        return ConfigurationValue(name: "config-dir", value: url.path, source: variable == nil ? .default : .environment,
                                  option: nil, variable: variable ?? "HOGWARTS_CONFIG_DIR", problem: nil, refused: false)
    }

    private var host: ConfigurationValue {
        value("serve.host", variables["HOGWARTS_HOST"] ?? ServeCommand.defaultHost, option: "serve --host", given: nil, variable: "HOGWARTS_HOST")
    }

    private var port: ConfigurationValue {
        guard let text = variables["HOGWARTS_PORT"] else {
            return value("serve.port", ServeCommand.defaultPort, option: "serve --port", given: nil, variable: "HOGWARTS_PORT")
        }
        do {
            return value("serve.port", String(try ServeCommand.port(text)), option: "serve --port", given: nil, variable: "HOGWARTS_PORT")
        } catch {
            return refused("serve.port", text, option: "serve --port", variable: "HOGWARTS_PORT", problem: "HOGWARTS_PORT: \(message(error))")
        }
    }

    private var threads: ConfigurationValue {
        ConfigurationValue(name: "serve.threads", value: String(APIServer.defaultThreads), source: .default,
                           option: "serve --threads", variable: nil, problem: nil, refused: false)
    }

    private var trustedProxies: ConfigurationValue {
        let text = variables["HOGWARTS_TRUSTED_PROXIES"] ?? ""
        do {
            _ = try TrustedProxies.fromEnvironment(variables)
            return value("serve.trusted-proxies", text.isEmpty ? L("kernel.config.none") : text, option: nil,
                         given: nil, variable: "HOGWARTS_TRUSTED_PROXIES")
        } catch {
            // The message names the variable already.
            return refused("serve.trusted-proxies", text, option: nil, variable: "HOGWARTS_TRUSTED_PROXIES", problem: message(error))
        }
    }

    private var consoleSecure: ConfigurationValue {
        let on = APIServer.consoleAlwaysSecure(variables)
        if let text = variables["HOGWARTS_CONSOLE_SECURE"], !on, !text.isEmpty {
            return ignored("serve.console-secure", "0", option: nil, variable: "HOGWARTS_CONSOLE_SECURE",
                           problem: L("kernel.config.ignored", ["value": text, "expected": L("kernel.config.one")]))
        }
        return value("serve.console-secure", on ? "1" : "0", option: nil, given: nil, variable: "HOGWARTS_CONSOLE_SECURE")
    }

    private var liveInterval: ConfigurationValue {
        let name = "HOGWARTS_LIVE_INTERVAL"
        let effective = LiveHub.interval(variables)
        let seconds = Double(effective.components.seconds) + Double(effective.components.attoseconds) / 1e18
        let shown = String(format: "%g", seconds)
        if let text = variables[name], LiveHub.seconds(text) == nil {
            return ignored("serve.live-interval", shown, option: nil, variable: name,
                           problem: L("kernel.config.ignored", ["value": text, "expected": L("kernel.config.live-interval")]))
        }
        return value("serve.live-interval", shown, option: nil, given: nil, variable: name)
    }

    private var connections: ConfigurationValue {
        let name = "HOGWARTS_DATABASE_CONNECTIONS"
        let fallback = String(PostgresEngine.defaultConnectionLimit)
        guard let text = variables[name] else { return value("postgres.connections", fallback, option: nil, given: nil, variable: name) }
        guard let limit = PostgresEngine.connectionLimit(text) else {
            return ignored("postgres.connections", fallback, option: nil, variable: name,
                           problem: L("kernel.config.ignored", ["value": text, "expected": L("kernel.config.connections")]))
        }
        return value("postgres.connections", String(limit), option: nil, given: nil, variable: name)
    }

    private var timeouts: [ConfigurationValue] {
        let effective = PostgresTimeouts.fromEnvironment(variables)
        let table: [(String, String, Int)] = [
            ("postgres.connect-timeout", "HOGWARTS_DATABASE_CONNECT_TIMEOUT", effective.connect),
            ("postgres.pool-wait", "HOGWARTS_DATABASE_POOL_WAIT", Int(effective.poolWait)),
            ("postgres.lock-timeout", "HOGWARTS_DATABASE_LOCK_TIMEOUT", effective.lock),
            ("postgres.statement-timeout", "HOGWARTS_DATABASE_STATEMENT_TIMEOUT", effective.statement),
            ("postgres.idle-timeout", "HOGWARTS_DATABASE_IDLE_TIMEOUT", effective.idleInTransaction),
        ]
        return table.map { name, variable, seconds in
            if let text = variables[variable], PostgresTimeouts.seconds(text) == nil {
                return ignored(name, String(seconds), option: nil, variable: variable, problem: L("kernel.config.ignored", ["value": text, "expected": L("kernel.config.seconds")]))
            }
            return value(name, String(seconds), option: nil, given: nil, variable: variable)
        }
    }

    private func given(_ option: String) -> Bool {
        arguments.contains { $0 == option || $0.hasPrefix(option + "=") }
    }

    /// A value from the flag when given, else from the variable when set, else the default.
    private func value(_ name: String, _ shown: String, option: String?, given flag: String?, variable: String?) -> ConfigurationValue {
        let source: ConfigurationValue.Source = flag != nil ? .flag : variable.flatMap { variables[$0] } != nil ? .environment : .default
        return ConfigurationValue(name: name, value: shown, source: source, option: option, variable: variable, problem: nil, refused: false)
    }

    /// The variable is set but not usable: the default is in force.
    private func ignored(_ name: String, _ fallback: String, option: String?, variable: String, problem: String) -> ConfigurationValue {
        ConfigurationValue(name: name, value: fallback, source: .default, option: option, variable: variable,
                           problem: "\(variable): \(problem)", refused: false)
    }

    /// The variable is set to something `serve` refuses to start with.
    private func refused(_ name: String, _ text: String, option: String?, variable: String, problem: String) -> ConfigurationValue {
        ConfigurationValue(name: name, value: text, source: .environment, option: option, variable: variable, problem: problem, refused: true)
    }

    private func message(_ error: any Error) -> String {
        CommandEnvironment.current.localizer.message(for: error)
    }
}
