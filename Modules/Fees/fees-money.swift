import Foundation

/// Money as whole minor units (cents, fils) of the school's ISO 4217 currency: exact, never `Double`.
public enum FeesMoney {
    /// ISO 4217 minor digits for the currencies whose digits are not 2.
    private static let unusualDigits: [String: Int] = [
        "BHD": 3, "IQD": 3, "JOD": 3, "KWD": 3, "LYD": 3, "OMR": 3, "TND": 3,
        "JPY": 0, "KRW": 0, "CLP": 0, "ISK": 0, "VND": 0, "XAF": 0, "XOF": 0, "UGX": 0, "RWF": 0, "DJF": 0, "GNF": 0, "KMF": 0, "PYG": 0,
    ]

    /// How many minor digits a currency has (2 unless ISO 4217 says otherwise).
    public static func minorDigits(of currency: String) -> Int { unusualDigits[currency] ?? 2 }

    /// Whether `code` looks like an ISO 4217 code: three capital letters.
    public static func isCurrencyCode(_ code: String) -> Bool {
        code.count == 3 && code.unicodeScalars.allSatisfy { $0.value >= 65 && $0.value <= 90 }
    }

    /// `1250` with 2 digits is `12.50`; negative amounts keep their sign.
    public static func format(_ minor: Int, digits: Int) -> String {
        let sign = minor < 0 ? "-" : ""
        let magnitude = minor.magnitude
        guard digits > 0 else { return sign + String(magnitude) }
        var scale: UInt = 1
        for _ in 0..<digits { scale *= 10 }
        let fraction = String(magnitude % scale)
        return sign + String(magnitude / scale) + "." + String(repeating: "0", count: digits - fraction.count) + fraction
    }

    /// `12.5` with 2 digits is `1250`. Nil for anything else than digits with at most `digits`
    /// decimals, for a negative amount, and for an amount too large to hold.
    public static func parse(_ text: String, digits: Int) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let parts = trimmed.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let whole = parts.first, !whole.isEmpty, whole.count <= 12, whole.allSatisfy(\.isASCIIDigit) else { return nil }
        let fraction = parts.count == 2 ? String(parts[1]) : ""
        guard fraction.count <= digits, parts.count == 1 || !fraction.isEmpty, fraction.allSatisfy(\.isASCIIDigit) else { return nil }
        let padded = fraction + String(repeating: "0", count: digits - fraction.count)
        return Int(String(whole) + padded)
    }

    /// `amount × basisPoints / 10000`, rounded half up: a 12.5% discount is 1250 basis points.
    public static func percent(_ amount: Int, basisPoints: Int) -> Int {
        (amount * basisPoints + 5_000) / 10_000
    }

    /// A charge for the part of a period still ahead: `amount × remaining / total`, rounded half
    /// up, never more than the amount and never negative.
    public static func prorated(_ amount: Int, remainingDays: Int, totalDays: Int) -> Int {
        guard totalDays > 0 else { return amount }
        let remaining = min(max(remainingDays, 0), totalDays)
        return (amount * remaining * 2 + totalDays) / (totalDays * 2)
    }
}

extension Character {
    var isASCIIDigit: Bool { asciiValue.map { (48...57).contains($0) } ?? false }
}
