import Foundation
import HogwartsBase

/// A type a setting can hold: it reads and writes itself as text, the way the CLI and the database see it.
public protocol SettingValue: Sendable {
    init?(settingText: String)
    var settingText: String { get }
}

extension Int: SettingValue {
    public init?(settingText: String) { self.init(settingText.trimmingCharacters(in: .whitespaces)) }
    public var settingText: String { String(self) }
}

extension Bool: SettingValue {
    public init?(settingText: String) {
        switch settingText.lowercased() {
        case "true", "yes", "on", "1": self = true
        case "false", "no", "off", "0": self = false
        default: return nil
        }
    }
    public var settingText: String { self ? "true" : "false" }
}

extension String: SettingValue {
    public init?(settingText: String) { self = settingText }
    public var settingText: String { self }
}

/// A typed per-school setting a module declares, such as Attendance's late threshold.
/// Read it in an action with `context.setting(MyModule.lateThreshold)`.
public struct Setting<Value: SettingValue>: Sendable {
    public let moduleID: ModuleID
    public let key: String
    public let defaultValue: Value
    /// What a valid value looks like, shown in errors and listings: `1-60`, `true|false`, ...
    public let expected: String
    /// A file the platform writes: kept inside the database's folder unless the operator forces it.
    public let isFilePath: Bool
    /// How a person is asked for it (the console's control and its hint in words).
    public let kind: SettingKind
    private let isValid: @Sendable (Value) -> Bool

    public init(_ moduleID: ModuleID, _ key: String, default defaultValue: Value, expected: String, isFilePath: Bool = false,
                kind: SettingKind? = nil, isValid: @escaping @Sendable (Value) -> Bool) {
        self.moduleID = moduleID
        self.key = key
        self.defaultValue = defaultValue
        self.expected = expected
        self.isFilePath = isFilePath
        self.kind = kind ?? (isFilePath ? .file : .text)
        self.isValid = isValid
    }

    public var fullKey: String { "\(moduleID).\(key)" }

    /// The untyped description the registry, the CLI and the store work with.
    public var definition: SettingDefinition {
        let isValid = self.isValid
        return SettingDefinition(moduleID: moduleID, key: key, defaultText: defaultValue.settingText, expected: expected, isFilePath: isFilePath,
                                 kind: kind) { text in
            guard let value = Value(settingText: text), isValid(value) else { return nil }
            return value.settingText
        }
    }

    func decode(_ text: String?) -> Value {
        text.flatMap { Value(settingText: $0) }.flatMap { isValid($0) ? $0 : nil } ?? defaultValue
    }
}

extension Setting where Value == Int {
    /// A whole number within `range`, counted in `unit` when it has one.
    public static func integer(_ moduleID: ModuleID, _ key: String, default value: Int, in range: ClosedRange<Int>, unit: SettingUnit? = nil) -> Setting {
        Setting(moduleID, key, default: value, expected: "\(range.lowerBound)-\(range.upperBound)", kind: .number(range, unit: unit)) { range.contains($0) }
    }
}

extension Setting where Value == Bool {
    public static func flag(_ moduleID: ModuleID, _ key: String, default value: Bool) -> Setting {
        Setting(moduleID, key, default: value, expected: "true|false", kind: .flag) { _ in true }
    }
}

extension Setting where Value == String {
    /// A file the platform writes (a delivery log, say). Relative paths are relative to the
    /// database's folder; `settings set` refuses a path outside that folder unless forced, so a
    /// setting cannot point the platform's writes at another user's files by accident.
    public static func filePath(_ moduleID: ModuleID, _ key: String, default value: String) -> Setting {
        Setting(moduleID, key, default: value, expected: "path", isFilePath: true) { !$0.isEmpty && !$0.contains("\u{0}") }
    }

    /// One of a fixed set of words.
    public static func choice(_ moduleID: ModuleID, _ key: String, default value: String, from options: [String]) -> Setting {
        Setting(moduleID, key, default: value, expected: options.joined(separator: "|"), kind: .choice(options)) { options.contains($0) }
    }
}

/// A setting without its Swift type: key, default, what is expected, and how to check a text value.
public struct SettingDefinition: Sendable {
    public let moduleID: ModuleID
    public let key: String
    public let defaultText: String
    public let expected: String
    public var isFilePath = false
    public var kind = SettingKind.text
    /// The normalized text of a valid value, nil when invalid.
    package let normalize: @Sendable (String) -> String?

    public var fullKey: String { "\(moduleID).\(key)" }
    /// Catalog key of the one-line description: `<module>.setting.<key>`.
    public var summaryKey: String { "\(moduleID).setting.\(key)" }
}

/// Reads stored setting values on the connection of the running transaction.
package struct SettingsReader {
    let connection: any StorageConnection
    /// The folder that holds the database, against which file-path settings resolve.
    let databaseFolder: URL

    /// Resolves a file-path setting's text: absolute as written, relative against the database's folder.
    package static func resolve(_ path: String, in folder: URL) -> URL {
        (path.hasPrefix("/") ? URL(filePath: path) : folder.appending(path: path)).standardizedFileURL
    }

    func value<Value>(of setting: Setting<Value>, in school: SchoolID) throws -> Value {
        let stored = try connection.fetchValue(String.self, sql: "SELECT value FROM kernel_settings WHERE school_id = ? AND key = ?", arguments: [school, setting.fullKey])
        return setting.decode(stored)
    }
}
