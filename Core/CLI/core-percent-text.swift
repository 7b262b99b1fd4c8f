import Foundation

/// A percentage for a table that explains the label beside it (a letter, a risk band).
public enum PercentText {
    /// As many decimals (1 to 4) as it takes for the number shown to fall in the same band as
    /// the exact one: 79.99 on a B-from-80 scale reads "79.99%" next to its C+, not "80.0%".
    /// Closer to a bound than 0.0001, the digits are cut rather than rounded across it. JSON
    /// keeps the exact number; this is for people.
    public static func text<Band: Equatable>(_ value: Double, band: (Double) -> Band) -> String {
        let exact = band(value)
        for decimals in 1...4 {
            let text = String(format: "%.\(decimals)f", value)
            if let shown = Double(text), band(shown) == exact { return text + "%" }
        }
        return String(format: "%.4f", (value * 10_000).rounded(.down) / 10_000) + "%"
    }
}
