import Core

/// One thing wrong with a OneRoster set: which file, which row (the header is row 1), which
/// column, and why. An import lists every one of them and writes nothing.
public struct OneRosterViolation: Codable, Sendable, Equatable {
    public let file: String
    public let row: Int
    public let column: String
    public let reason: String
}

public enum OneRosterError: HogwartsError, Equatable {
    /// The set breaks the specification or Hogwarts' rules; the violations say where.
    case invalidSet([OneRosterViolation])
    /// Neither a zip nor a folder with `manifest.csv` or OneRoster files at that path.
    case unreadablePackage(String)
    /// The export's target already exists.
    case targetExists(String)
    /// A set-password code that is wrong, used or expired (one answer for all three).
    case badCode
    /// A file that is not UTF-8 text.
    case notUTF8(String)
    /// A set past one of the school's limits (`limit` is `total-size`, `file-size`, `ratio`,
    /// `entries` or `rows`), named with the setting that raises it; nothing is written.
    case limitExceeded(limit: String, setting: String, allowed: String, file: String)
    /// The set holds several schools and none (or one it does not hold) was chosen.
    case severalSchools([OneRosterSchoolChoice])

    public var messageKey: String {
        switch self {
        case .invalidSet: "oneroster.error.invalid-set"
        case .unreadablePackage: "oneroster.error.unreadable-package"
        case .targetExists: "oneroster.error.target-exists"
        case .badCode: "oneroster.error.bad-code"
        case .notUTF8: "oneroster.error.not-utf8"
        case .limitExceeded(let limit, _, _, _): "oneroster.error.limit.\(limit)"
        case .severalSchools: "oneroster.error.several-schools"
        }
    }

    public var messageArguments: [String: String] {
        switch self {
        case .invalidSet(let violations): ["count": String(violations.count)]
        case .unreadablePackage(let path), .targetExists(let path), .notUTF8(let path): ["path": path]
        case .badCode: [:]
        case .limitExceeded(_, let setting, let allowed, let file): ["setting": setting, "allowed": allowed, "file": file]
        case .severalSchools(let schools): ["schools": schools.map(\.description).joined(separator: "; ")]
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .invalidSet, .notUTF8, .limitExceeded, .severalSchools: .invalidData
        case .unreadablePackage: .notFound
        case .targetExists: .conflict
        case .badCode: .permissionDenied
        }
    }
}

/// One school of a set that holds several, as `orgs.csv` names it: what an import is told to take.
public struct OneRosterSchoolChoice: Codable, Sendable, Equatable, CustomStringConvertible {
    public let sourcedId: String
    public let identifier: String
    public let name: String

    public init(sourcedId: String, identifier: String, name: String) {
        self.sourcedId = sourcedId
        self.identifier = identifier
        self.name = name
    }

    /// `sourcedId (identifier, name)`, with `-` for a missing identifier.
    public var description: String { "\(sourcedId) (\(identifier.isEmpty ? "-" : identifier), \(name))" }
}
