/// What `hogwarts check` found: the engine's own verdict on the stored data.
public struct IntegrityReport: Codable, Sendable {
    /// The check that ran: SQLite's `integrity_check` (every page and index), or `quick_check`
    /// for large files, which skips comparing indexes with their tables.
    public let mode: String
    public let path: String
    public let ok: Bool
    /// The engine's findings, at most 20; empty when ok.
    public let problems: [String]

    package init(mode: String, path: String, ok: Bool, problems: [String]) {
        self.mode = mode
        self.path = path
        self.ok = ok
        self.problems = problems
    }
}
