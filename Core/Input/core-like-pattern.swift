/// `LIKE` patterns built from what a person typed, with `%`, `_` and `\` taken literally, so a
/// search for `%` finds names containing a percent sign instead of every student.
///
/// Use with the clause: `column LIKE :pattern ESCAPE '\'` (`LikePattern.escapeClause`).
public enum LikePattern {
    public static let escapeClause = #"ESCAPE '\'"#

    /// The text with its wildcard characters escaped.
    public static func literal(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    /// Matches values that contain `text`.
    public static func contains(_ text: String) -> String { "%\(literal(text))%" }

    /// Matches values that start with `text` (ids given by prefix).
    public static func prefix(_ text: String) -> String { "\(literal(text))%" }
}
