/// `LIKE` patterns built from what a person typed, with `%`, `_` and `\` taken literally, so a
/// search for `%` finds names containing a percent sign instead of every student.
///
/// Use with the clause: `column LIKE :pattern ESCAPE '\'` (`LikePattern.escapeClause`).
public enum LikePattern {
    public static let escapeClause = #"ESCAPE '\'"#

    /// The text with its wildcard characters escaped. Scalars, not Characters: a backslash can
    /// hide inside one grapheme with the mark before it (`؃\`), and SQLite sees the scalar.
    public static func literal(_ text: String) -> String {
        var escaped = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "%" || scalar == "_" || scalar == "\\" { escaped.append("\\") }
            escaped.append(scalar)
        }
        return String(escaped)
    }

    /// Matches values that contain `text`.
    public static func contains(_ text: String) -> String { "%\(literal(text))%" }

    /// Matches values that start with `text` (ids given by prefix). Ids are lowercase hex, so the
    /// prefix is lowered: `A1B2` finds `a1b2…` on PostgreSQL too, whose LIKE does not ignore case.
    public static func prefix(_ text: String) -> String { "\(literal(text.lowercased()))%" }
}
