/// The two languages of the platform. Arabic is the default and is written right to left.
public enum Language: String, CaseIterable, Sendable, Codable {
    case ar
    case en

    public static let `default`: Language = .ar

    public var isRightToLeft: Bool { self == .ar }

    /// The language asked for by `--lang X` / `--lang=X` on the command line, else `HOGWARTS_LANG`,
    /// else Arabic. Read before argument parsing because help texts are already localized.
    public static func resolve(arguments: [String], environment: [String: String]) -> Language {
        var requested: String?
        for (index, argument) in arguments.enumerated() {
            if argument == "--lang", index + 1 < arguments.count {
                requested = arguments[index + 1]
            } else if argument.hasPrefix("--lang=") {
                requested = String(argument.dropFirst("--lang=".count))
            }
        }
        let value = requested ?? environment["HOGWARTS_LANG"]
        return value.flatMap { Language(rawValue: $0.lowercased()) } ?? .default
    }
}

/// A text in both languages, such as a module's name.
public struct LocalizedText: Sendable, Hashable, Codable {
    public let ar: String
    public let en: String

    public init(ar: String, en: String) {
        self.ar = ar
        self.en = en
    }

    /// Reads `key` from a catalog in both languages (the key itself where a language lacks it).
    public init(key: String, catalog: StringCatalog) {
        self.init(ar: catalog.text(key, in: .ar) ?? key, en: catalog.text(key, in: .en) ?? key)
    }

    public func text(in language: Language) -> String {
        switch language {
        case .ar: ar
        case .en: en
        }
    }

    /// The text in `language` with its `{name}` placeholders filled in.
    public func text(in language: Language, _ arguments: [String: String]) -> String {
        arguments.reduce(text(in: language)) { $0.replacingOccurrences(of: "{\($1.key)}", with: $1.value) }
    }
}
