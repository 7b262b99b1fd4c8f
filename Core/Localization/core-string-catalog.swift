import Foundation

/// A module's user-facing strings in Arabic and English, keyed by `<module>.<area>.<name>`.
///
/// Catalogs live in each target's resources as `Resources/strings/ar.json` and `en.json`
/// (flat JSON objects), so a module carries its own translations. Placeholders are `{name}`.
public struct StringCatalog: Sendable {
    public private(set) var tables: [Language: [String: String]]

    public init(ar: [String: String], en: [String: String]) {
        tables = [.ar: ar, .en: en]
    }

    /// Loads `Resources/strings/<language>.json` from a target's bundle. A missing or malformed
    /// file yields an empty table, which the per-module "every key in both languages" test reports.
    public static func load(from bundle: Bundle) -> StringCatalog {
        // JSONSerialization, not JSONDecoder: every command loads these tables at start, and the
        // decoder's generic path cost a quarter of a whole `hogwarts --version`.
        func table(_ language: Language) -> [String: String] {
            guard let url = bundle.url(forResource: language.rawValue, withExtension: "json", subdirectory: "Resources/strings"),
                  let data = try? Data(contentsOf: url),
                  let table = (try? JSONSerialization.jsonObject(with: data)) as? [String: String]
            else { return [:] }
            return table
        }
        return StringCatalog(ar: table(.ar), en: table(.en))
    }

    public func text(_ key: String, in language: Language) -> String? {
        tables[language]?[key]
    }

    /// Both catalogs together; on a clash the other catalog wins.
    public func merging(_ other: StringCatalog) -> StringCatalog {
        var merged = self
        for (language, table) in other.tables {
            merged.tables[language, default: [:]].merge(table) { _, new in new }
        }
        return merged
    }

    /// Keys present in one language but not the other (or empty), as `key [en]` / `key [ar]`, sorted.
    public var missingTranslations: [String] {
        let allKeys = Set(tables.values.flatMap(\.keys))
        var missing: [String] = []
        for key in allKeys {
            for language in Language.allCases where (tables[language]?[key] ?? "").isEmpty {
                missing.append("\(key) [\(language.rawValue)]")
            }
        }
        return missing.sorted()
    }

    public var keys: Set<String> { Set(tables.values.flatMap(\.keys)) }
}

/// Turns keys and errors into text in one language.
public struct Localizer: Sendable {
    public let language: Language
    public let catalog: StringCatalog

    public init(language: Language, catalog: StringCatalog) {
        self.language = language
        self.catalog = catalog
    }

    /// The text for `key` with `{placeholders}` filled in; the key itself when it is missing,
    /// so a gap shows up in output instead of crashing.
    public func callAsFunction(_ key: String, _ arguments: [String: String] = [:]) -> String {
        var text = catalog.text(key, in: language) ?? catalog.text(key, in: .en) ?? key
        for (name, value) in arguments {
            text = text.replacingOccurrences(of: "{\(name)}", with: value)
        }
        return text
    }

    /// A one-line message for any error: localized for `HogwartsError`, described otherwise.
    public func message(for error: any Error) -> String {
        if let error = error as? any HogwartsError {
            return self(error.messageKey, error.messageArguments)
        }
        return self("kernel.error.unexpected", ["detail": String(describing: error)])
    }
}
