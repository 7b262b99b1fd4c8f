import Foundation

/// Numbers as a teacher writes them: plain decimal digits with an optional sign and point.
///
/// Swift's own `Double("…")` also accepts `nan`, `inf`, `0x10` and `1e400` (infinity), which
/// would be stored as a score or weight and break every average after it. Checked scalar by
/// scalar rather than with a regular expression: the first one compiled in a process costs
/// ICU's start-up, a tenth of a command's whole run.
public enum StrictNumber {
    /// A finite decimal such as `18`, `18.5` or `-2` (at most 12 digits before the point and 6
    /// after); nil for anything else.
    public static func decimal(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard isPlain(trimmed, wholeDigits: 12, fractionDigits: 6), let value = Double(trimmed), value.isFinite else { return nil }
        return value
    }

    /// A whole number such as `3` or `-7` (at most 15 digits, far inside `Int`); nil otherwise.
    public static func integer(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard isPlain(trimmed, wholeDigits: 15, fractionDigits: 0) else { return nil }
        return Int(trimmed)
    }

    /// `[+-]?[0-9]{1,wholeDigits}(\.[0-9]{1,fractionDigits})?`, the point only when fractions are allowed.
    static func isPlain(_ text: String, wholeDigits: Int, fractionDigits: Int) -> Bool {
        var scalars = Substring(text).unicodeScalars
        if let sign = scalars.first, sign == "+" || sign == "-" { scalars = scalars.dropFirst() }
        let parts = scalars.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, (1...wholeDigits).contains(whole.count), whole.allSatisfy(isDigit) else { return false }
        guard parts.count == 2 else { return true }
        return fractionDigits > 0 && (1...fractionDigits).contains(parts[1].count) && parts[1].allSatisfy(isDigit)
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
}
