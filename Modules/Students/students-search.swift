import Foundation

/// Folds a name so that a search typed the quick way finds it: Arabic diacritics (tashkeel)
/// and tatweel are dropped, alef and hamza forms become a bare alef, ta marbuta becomes ha,
/// alef maqsura becomes ya, Latin letters lose case and accents. The web app's search found
/// nothing for "احمد" when the record said "أحمد": this is the fix.
public enum ArabicSearch {
    public static func fold(_ text: String) -> String {
        var folded = ""
        for scalar in text.precomposedStringWithCanonicalMapping.lowercased().unicodeScalars {
            switch scalar.value {
            case 0x064B...0x065F, 0x0670, 0x0640: continue // tashkeel, superscript alef, tatweel
            case 0x0622, 0x0623, 0x0625, 0x0671: folded.unicodeScalars.append("\u{0627}") // آ أ إ ٱ -> ا
            case 0x0629: folded.unicodeScalars.append("\u{0647}") // ة -> ه
            case 0x0649: folded.unicodeScalars.append("\u{064A}") // ى -> ي
            case 0x0624: folded.unicodeScalars.append("\u{0648}") // ؤ -> و
            case 0x0626: folded.unicodeScalars.append("\u{064A}") // ئ -> ي
            default: folded.unicodeScalars.append(scalar)
            }
        }
        return folded.folding(options: [.diacriticInsensitive], locale: nil)
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
