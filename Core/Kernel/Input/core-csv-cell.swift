/// Spreadsheet-safe CSV cells.
///
/// A cell that starts with `=`, `+`, `-` or `@` (or a tab or carriage return) is run as a
/// formula by Excel and LibreOffice when a school opens an export, so a student named
/// `=HYPERLINK(...)` could reach the person opening the file. Every export writes cells through
/// `neutralized`, which prefixes such a cell with an apostrophe; importers read cells through
/// `restored`, so an export still imports back unchanged.
public enum CSVCell {
    private static let triggers: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]

    /// Whether a cell would be read as a formula, or is already an apostrophe before one (which
    /// must gain an apostrophe too, so that `restored` can undo exactly one). Scalars, not
    /// Characters: `=` followed by a combining mark is one Character but still a formula.
    private static func needsApostrophe(_ value: Substring.UnicodeScalarView) -> Bool {
        guard let first = value.first else { return false }
        if triggers.contains(first) { return true }
        return first == "'" && needsApostrophe(value.dropFirst())
    }

    public static func neutralized(_ value: String) -> String {
        needsApostrophe(value[...].unicodeScalars) ? "'" + value : value
    }

    /// A whole CSV field as exports write it: neutralized, then quoted as RFC 4180 asks when it
    /// holds a comma, a quote or a line break (its quotes doubled).
    public static func field(_ value: String) -> String {
        let cell = neutralized(value)
        guard cell.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return cell }
        return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Undoes `neutralized`: `restored(neutralized(x)) == x` for every `x`.
    public static func restored(_ value: String) -> String {
        let scalars = value[...].unicodeScalars
        guard scalars.first == "'", needsApostrophe(scalars.dropFirst()) else { return value }
        return String(String.UnicodeScalarView(scalars.dropFirst()))
    }
}
