/// Where a person reads a message: the command line, or the web (the HTTP API, the apps that
/// show its errors, and the console). A command-line text may name flags and commands
/// (`--student`, `hogwarts students list`); on the web those mean nothing, so a catalog key may
/// have a web wording beside it, `<key>@web`, which the web surfaces read first.
public enum Surface: String, Sendable, CaseIterable {
    case commandLine
    case web

    /// The suffix of a key's web wording.
    public static let webSuffix = "@web"

    /// The keys to read, in order, for `key` on this surface.
    func keys(for key: String) -> [String] {
        switch self {
        case .commandLine: [key]
        case .web: [key + Self.webSuffix, key]
        }
    }
}
