import Foundation
import HogwartsBase

/// A module's user-facing strings in Arabic and English, keyed by `<module>.<area>.<name>`.
///
/// Catalogs live in each target's resources as `Resources/strings/ar.json` and `en.json`
/// (flat JSON objects), so a module carries its own translations. Placeholders are `{name}`.
///
/// Files are read when a language is first asked for, not when the catalog is made or merged: a
/// command prints in one language, so a process parses half the files, and `--version` none.
public struct StringCatalog: Sendable {
    /// Later parts win on a clash.
    private let parts: [Part]
    /// The parts merged, per language, made on first use.
    private let merged = LanguageTables()

    public init(ar: [String: String], en: [String: String]) {
        parts = [.tables([.ar: ar, .en: en])]
    }

    private init(parts: [Part]) {
        self.parts = parts
    }

    /// `Resources/strings/<language>.json` from a target's bundle, read on first use. A missing or
    /// malformed file yields an empty table, which the per-module "every key in both languages"
    /// test reports.
    ///
    /// The files are looked for first where SwiftPM puts a target's resources, beside the
    /// executable (`Hogwarts_<Target>.resources`, the target named by the caller's `#fileID`), and
    /// only then through `bundle`: making a `Bundle` lists its folders, and every command needs all
    /// nine catalogs for its help texts.
    public static func load(from bundle: @autoclosure @escaping () -> Bundle, fileID: String = #fileID) -> StringCatalog {
        let target = fileID.split(separator: "/").first.map(String.init) ?? ""
        return StringCatalog(parts: [.files(BundleStrings(target: target, bundle: bundle))])
    }

    public func text(_ key: String, in language: Language) -> String? {
        table(language)[key]
    }

    /// Every key and text of one language.
    public func table(_ language: Language) -> [String: String] {
        merged.table(language) {
            let tables = parts.map { $0.table(language) }
            guard tables.count > 1 else { return tables.first ?? [:] }
            var table: [String: String] = [:]
            table.reserveCapacity(tables.reduce(0) { $0 + $1.count })
            for part in tables {
                table.merge(part) { _, new in new }
            }
            return table
        }
    }

    /// Both languages' tables (reads every file).
    public var tables: [Language: [String: String]] {
        Dictionary(uniqueKeysWithValues: Language.allCases.map { ($0, table($0)) })
    }

    /// Both catalogs together; on a clash the other catalog wins.
    public func merging(_ other: StringCatalog) -> StringCatalog {
        StringCatalog(parts: parts + other.parts)
    }

    /// Keys present in one language but not the other (or empty), as `key [en]` / `key [ar]`, sorted.
    public var missingTranslations: [String] {
        let tables = tables
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

    private enum Part: Sendable {
        case tables([Language: [String: String]])
        case files(BundleStrings)

        func table(_ language: Language) -> [String: String] {
            switch self {
            case .tables(let tables): tables[language] ?? [:]
            case .files(let files): files.table(language)
            }
        }
    }
}

/// Tables per language, each made once; safe to share between threads.
private final class LanguageTables: @unchecked Sendable {
    private let lock = NSLock()
    private var tables: [Language: [String: String]] = [:]

    func table(_ language: Language, make: () -> [String: String]) -> [String: String] {
        lock.lock()
        defer { lock.unlock() }
        if let table = tables[language] { return table }
        let table = make()
        tables[language] = table
        return table
    }
}

/// One target's string files, each read once, on first use (a module's catalog is a static, shared
/// by every registry that merges it).
private final class BundleStrings: @unchecked Sendable {
    private let target: String
    private let bundle: () -> Bundle
    private let tables = LanguageTables()

    init(target: String, bundle: @escaping () -> Bundle) {
        self.target = target
        self.bundle = bundle
    }

    func table(_ language: Language) -> [String: String] {
        tables.table(language) {
            guard let data = read(language) else { return [:] }
            return FlatJSON.strings(data) ?? [:]
        }
    }

    private func read(_ language: Language) -> Data? {
        let name = "Resources/strings/\(language.rawValue).json"
        if !target.isEmpty, let folder = Self.executableFolder,
           let data = try? Data(contentsOf: folder.appending(path: "Hogwarts_\(target).resources/\(name)")) {
            return data
        }
        guard let url = bundle().url(forResource: language.rawValue, withExtension: "json", subdirectory: "Resources/strings") else { return nil }
        return try? Data(contentsOf: url)
    }

    /// The running executable's folder (symbolic links resolved, as SwiftPM's `Bundle.module` does).
    private static let executableFolder: URL? = {
        #if os(Linux)
        guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        return URL(filePath: path).deletingLastPathComponent()
        #else
        return Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent()
        #endif
    }()
}
/// Turns keys and errors into text in one language.
public struct Localizer: Sendable {
    public let language: Language
    public let catalog: StringCatalog
    /// Which wording of a key to prefer: the web's (no command-line flags) or the command line's.
    public let surface: Surface

    public init(language: Language, catalog: StringCatalog, surface: Surface = .commandLine) {
        self.language = language
        self.catalog = catalog
        self.surface = surface
    }

    /// The text for `key` with `{placeholders}` filled in; the key itself when it is missing,
    /// so a gap shows up in output instead of crashing.
    public func callAsFunction(_ key: String, _ arguments: [String: String] = [:]) -> String {
        let keys = surface.keys(for: key)
        var text = keys.lazy.compactMap { catalog.text($0, in: language) }.first
            ?? keys.lazy.compactMap { catalog.text($0, in: .en) }.first ?? key
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
