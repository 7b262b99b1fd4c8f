import Foundation

/// Numbers as a teacher writes them: plain decimal digits with an optional sign and point.
///
/// Swift's own `Double("…")` also accepts `nan`, `inf`, `0x10` and `1e400` (infinity), which
/// would be stored as a score or weight and break every average after it.
public enum StrictNumber {
    /// A finite decimal such as `18`, `18.5` or `-2`; nil for anything else.
    public static func decimal(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.range(of: #"^[+-]?[0-9]{1,12}(\.[0-9]{1,6})?$"#, options: .regularExpression) != nil,
              let value = Double(trimmed), value.isFinite
        else { return nil }
        return value
    }

    /// A whole number such as `3` or `-7` that fits comfortably in an `Int`; nil otherwise.
    public static func integer(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.range(of: #"^[+-]?[0-9]{1,15}$"#, options: .regularExpression) != nil else { return nil }
        return Int(trimmed)
    }
}
