import Foundation

/// `trimmingCharacters(in: .whitespaces)` without Foundation's cost where there is nothing to
/// trim: a CSV import trims every cell, and Foundation goes through `NSString` each time.
///
/// The answer is always Foundation's: a cell whose first and last characters cannot be
/// whitespace in any Unicode version (letters, digits, Arabic, ...) is returned as it is, and
/// any other cell is trimmed by Foundation itself.
enum ImportTrim {
    static func whitespace(_ text: String) -> String {
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else { return text }
        if !mayBeWhitespace(first) && !mayBeWhitespace(last) { return text }
        return text.trimmingCharacters(in: .whitespaces)
    }

    /// Whether the cell is empty once trimmed.
    static func isBlank(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy(mayBeWhitespace) && text.trimmingCharacters(in: .whitespaces).isEmpty
    }

    /// Tab and every character that is or ever was in Unicode's space separators (Zs), plus the
    /// zero-width ones near them: a superset of `CharacterSet.whitespaces`.
    private static func mayBeWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x20, 0xA0, 0x1680, 0x180E, 0x2000...0x200B, 0x202F, 0x205F, 0x3000, 0xFEFF: true
        default: false
        }
    }
}
