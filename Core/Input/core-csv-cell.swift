/// Spreadsheet-safe CSV cells.
///
/// A cell that starts with `=`, `+`, `-` or `@` (or a tab or carriage return) is run as a
/// formula by Excel and LibreOffice when a school opens an export, so a student named
/// `=HYPERLINK(...)` could reach the person opening the file. Every export writes cells through
/// `neutralized`, which prefixes such a cell with an apostrophe; importers read cells through
/// `restored`, so an export still imports back unchanged.
public enum CSVCell {
    private static let triggers: Set<Character> = ["=", "+", "-", "@", "\t", "\r"]

    public static func neutralized(_ value: String) -> String {
        guard let first = value.first, triggers.contains(first) else { return value }
        return "'" + value
    }

    /// Undoes `neutralized`: an apostrophe followed by a formula trigger is dropped.
    public static func restored(_ value: String) -> String {
        guard value.first == "'", let second = value.dropFirst().first, triggers.contains(second) else { return value }
        return String(value.dropFirst())
    }
}
