/// A semantic version (`major.minor.patch`), compared numerically part by part.
///
/// Moodle's date-integer versions caused downgrade outages (reference/module-platforms.md): a
/// three-part version with ranges lets the registry say exactly which versions fit together.
public struct SemanticVersion: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let major: Int
    public let minor: Int
    public let patch: Int

    public init(_ major: Int, _ minor: Int, _ patch: Int) {
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    /// Parses `1`, `1.2` or `1.2.3`; missing parts are zero. Returns nil for anything else.
    public init?(parsing text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var numbers: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.allSatisfy(\.isASCII), let number = Int(part), number >= 0 else { return nil }
            numbers.append(number)
        }
        while numbers.count < 3 { numbers.append(0) }
        self.init(numbers[0], numbers[1], numbers[2])
    }

    public var description: String { "\(major).\(minor).\(patch)" }

    public static func < (lhs: SemanticVersion, rhs: SemanticVersion) -> Bool {
        (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let version = SemanticVersion(parsing: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a version: \(text)"))
        }
        self = version
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// A set of acceptable versions, written the way package managers do:
/// `^1.2.0` (same major, at least 1.2.0), `~1.2.0` (same minor), `>=1.0.0 <2.0.0`, `1.4.2` (exact) or `*`.
public struct VersionRange: Hashable, Sendable, CustomStringConvertible {
    package enum Bound: Hashable, Sendable {
        case atLeast(SemanticVersion)
        case greaterThan(SemanticVersion)
        case below(SemanticVersion)
        case atMost(SemanticVersion)
        case exactly(SemanticVersion)
    }

    package let bounds: [Bound]
    public let description: String

    /// Any version at all.
    public static let any = VersionRange(bounds: [], description: "*")

    package init(bounds: [Bound], description: String) {
        self.bounds = bounds
        self.description = description
    }

    /// Parses a range; throws `KernelError.invalidVersionRange` naming the text when it is malformed.
    public init(_ text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw KernelError.invalidVersionRange(text) }
        if trimmed == "*" {
            self = .any
            return
        }
        var bounds: [Bound] = []
        for token in trimmed.split(separator: " ") {
            guard let parsed = Self.parse(String(token)) else { throw KernelError.invalidVersionRange(text) }
            bounds.append(contentsOf: parsed)
        }
        self.init(bounds: bounds, description: trimmed)
    }

    public func contains(_ version: SemanticVersion) -> Bool {
        bounds.allSatisfy { bound in
            switch bound {
            case .atLeast(let v): version >= v
            case .greaterThan(let v): version > v
            case .below(let v): version < v
            case .atMost(let v): version <= v
            case .exactly(let v): version == v
            }
        }
    }

    private static func parse(_ token: String) -> [Bound]? {
        let operators: [(String, (SemanticVersion) -> [Bound])] = [
            (">=", { [.atLeast($0)] }),
            ("<=", { [.atMost($0)] }),
            (">", { [.greaterThan($0)] }),
            ("<", { [.below($0)] }),
            ("=", { [.exactly($0)] }),
            ("^", { v in
                let upper = v.major > 0 ? SemanticVersion(v.major + 1, 0, 0) : SemanticVersion(0, v.minor + 1, 0)
                return [.atLeast(v), .below(upper)]
            }),
            ("~", { v in [.atLeast(v), .below(SemanticVersion(v.major, v.minor + 1, 0))] }),
        ]
        for (symbol, makeBounds) in operators where token.hasPrefix(symbol) {
            guard let version = SemanticVersion(parsing: String(token.dropFirst(symbol.count))) else { return nil }
            return makeBounds(version)
        }
        return SemanticVersion(parsing: token).map { [.exactly($0)] }
    }
}
