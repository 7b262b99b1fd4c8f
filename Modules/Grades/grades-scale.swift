import Core
import Foundation

/// A school's letter grades: half-open bands by lower bound, so every percentage from 0 to 100,
/// decimals included, maps to exactly one letter. (The web app stored whole-number ranges with
/// gaps, so 94.5 matched nothing and became F.)
public struct GradeScale: Codable, Sendable, Equatable {
    public let name: String
    /// Highest lower bound first.
    public let bands: [GradeBand]

    public init(name: String, bands: [GradeBand]) {
        self.name = name
        self.bands = bands.sorted { $0.lowerBound > $1.lowerBound }
    }

    /// The band holding a percentage (clamped to 0...100).
    public func band(for percentage: Double) -> GradeBand {
        let value = min(100, max(0, percentage))
        return bands.first { value >= $0.lowerBound } ?? bands.last ?? GradeBand(letter: "F", lowerBound: 0, points: 0, passing: false)
    }

    /// The default: A+ from 95, A 90, B+ 85, B 80, C+ 75, C 70, D+ 65, D 60 (the pass mark), F below.
    public static let standard = GradeScale(name: "standard", bands: [
        GradeBand(letter: "A+", lowerBound: 95, points: 4.0, passing: true), GradeBand(letter: "A", lowerBound: 90, points: 4.0, passing: true),
        GradeBand(letter: "B+", lowerBound: 85, points: 3.5, passing: true), GradeBand(letter: "B", lowerBound: 80, points: 3.0, passing: true),
        GradeBand(letter: "C+", lowerBound: 75, points: 2.5, passing: true), GradeBand(letter: "C", lowerBound: 70, points: 2.0, passing: true),
        GradeBand(letter: "D+", lowerBound: 65, points: 1.5, passing: true), GradeBand(letter: "D", lowerBound: 60, points: 1.0, passing: true),
        GradeBand(letter: "F", lowerBound: 0, points: 0, passing: false),
    ])

    /// Parses `A+:95:4.0,A:90-95:4.0,...,F:0-60:0`: letter, lower bound (or `lower-upper`), grade
    /// points, and `:fail` for a failing band (the band starting at 0 always fails). Refuses a
    /// scale that does not cover 0 to 100 exactly once, naming the gap or the overlap. Numbers
    /// are plain decimals (`nan`, `inf`, `0x10` and `1e2` are refused), points run from 0 to 10.
    public static func parse(name: String, _ text: String) throws -> GradeScale {
        var parsed: [(band: GradeBand, upper: Double?)] = []
        for token in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            parsed.append(try band(token))
        }
        let ascending = parsed.sorted { $0.band.lowerBound < $1.band.lowerBound }
        guard let first = ascending.first else { throw GradesError.scaleMalformed(text) }
        guard first.band.lowerBound == 0 else { throw GradesError.scaleGap(from: 0, to: first.band.lowerBound) }
        var letters: Set<String> = []
        for (index, entry) in ascending.enumerated() {
            guard letters.insert(entry.band.letter).inserted else { throw GradesError.scaleDuplicateLetter(entry.band.letter) }
            let next = index + 1 < ascending.count ? ascending[index + 1] : nil
            let nextLower = next?.band.lowerBound ?? 100
            if let next, next.band.lowerBound == entry.band.lowerBound {
                throw GradesError.scaleOverlap(entry.band.letter, next.band.letter)
            }
            if let upper = entry.upper {
                if upper < nextLower { throw GradesError.scaleGap(from: upper, to: nextLower) }
                if upper > nextLower { throw GradesError.scaleOverlap(entry.band.letter, next?.band.letter ?? "100") }
            }
        }
        return GradeScale(name: name, bands: ascending.map(\.band))
    }

    /// A percentage for a table whose digits explain its letter on this scale (`PercentText`).
    public func percentText(_ value: Double) -> String {
        PercentText.text(value) { band(for: $0) }
    }

    /// The scale written back in the form `parse` reads.
    public var text: String {
        bands.map { band in
            let points = band.points == band.points.rounded() ? String(format: "%.1f", band.points) : String(band.points)
            return "\(band.letter):\(Self.number(band.lowerBound)):\(points)" + (!band.passing && band.lowerBound > 0 ? ":fail" : "")
        }.joined(separator: ",")
    }

    /// A number as a teacher writes it: `20`, `18.5`. Safe for any Double (no Int overflow).
    static func number(_ value: Double) -> String {
        value.isFinite && abs(value) < 1e15 && value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// One band, `letter:lower[-upper]:points[:fail]`.
    private static func band(_ token: String) throws -> (band: GradeBand, upper: Double?) {
        let parts = token.split(separator: ":", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard (3...4).contains(parts.count), !parts[0].isEmpty, parts[0].count <= 10, TextInput.problem(in: parts[0], maxLength: 10) == nil,
              parts.count == 3 || parts[3] == "fail"
        else { throw GradesError.scaleMalformed(token) }
        // Kept empty pieces: "-5" is a missing lower bound, not 5.
        let bounds = parts[1].split(separator: "-", omittingEmptySubsequences: false).map { StrictNumber.decimal(String($0)) }
        guard (1...2).contains(bounds.count), let lower = bounds[0] else { throw GradesError.scaleMalformed(token) }
        let upper: Double?
        if bounds.count == 2 {
            guard let value = bounds[1] else { throw GradesError.scaleMalformed(token) }
            upper = value
        } else {
            upper = nil
        }
        guard (0..<100).contains(lower), (upper ?? 100) <= 100, (upper ?? 100) > lower else { throw GradesError.scaleOutOfRange(token) }
        guard let points = StrictNumber.decimal(parts[2]) else { throw GradesError.scaleMalformed(token) }
        guard (0...10).contains(points) else { throw GradesError.scalePoints(token) }
        return (GradeBand(letter: parts[0], lowerBound: lower, points: points, passing: parts.count == 3 && lower > 0), upper)
    }
}
