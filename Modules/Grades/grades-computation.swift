import Core

/// Term marks, grade points, GPA and rank, computed from plain values so the rules are tested
/// without a database.
///
/// - Subject mark: with category weights, each category's total score over total maximum,
///   weighted by category (categories with no marks yet are left out and the weights renormalized);
///   without weights, total score over total maximum. ABSENT counts as 0; EXEMPT is left out.
/// - GPA = Σ(grade points × credits) / Σ credits; a subject without credits counts as 1.
/// - Rank: higher GPA first; equal GPAs share a rank and the next rank skips (1, 2, 2, 4).
public enum TermMarks {
    public struct Mark: Sendable {
        public let category: String
        public let score: Double?
        public let maxMarks: Double
        public let state: ResultState

        public init(category: String, score: Double?, maxMarks: Double, state: ResultState) {
            self.category = category
            self.score = score
            self.maxMarks = maxMarks
            self.state = state
        }
    }

    /// The subject percentage, nil when nothing counts yet.
    public static func percentage(_ marks: [Mark], weights: [String: Double]) -> Double? {
        var byCategory: [String: CategorySum] = [:]
        for mark in marks where mark.state != .exempt {
            var entry = byCategory[mark.category] ?? CategorySum(category: mark.category, score: 0, max: 0)
            entry.score += mark.state == .scored ? mark.score ?? 0 : 0
            entry.max += mark.maxMarks
            byCategory[mark.category] = entry
        }
        return percentage(Array(byCategory.values), weights: weights)
    }

    /// One category's score and maximum summed over a subject's results (EXEMPT left out,
    /// ABSENT as 0): all a subject's mark needs, so a whole term is summed as it is read.
    public struct CategorySum: Sendable {
        public let category: String
        public var score: Double
        public var max: Double

        public init(category: String, score: Double, max: Double) {
            self.category = category
            self.score = score
            self.max = max
        }
    }

    /// The subject percentage from its categories' sums (each category once), nil when nothing counts yet.
    public static func percentage(_ sums: [CategorySum], weights: [String: Double]) -> Double? {
        let counted = sums.filter { $0.max > 0 }
        guard !counted.isEmpty else { return nil }
        let weighted = counted.filter { (weights[$0.category] ?? 0) > 0 }
        if !weights.isEmpty, !weighted.isEmpty {
            let totalWeight = weighted.reduce(0) { $0 + (weights[$1.category] ?? 0) }
            return weighted.reduce(0) { $0 + $1.score / $1.max * 100 * (weights[$1.category] ?? 0) } / totalWeight
        }
        let score = counted.reduce(0) { $0 + $1.score }
        let max = counted.reduce(0) { $0 + $1.max }
        return score / max * 100
    }

    /// Credit-weighted grade points.
    public static func gpa(_ subjects: [(points: Double, credits: Double)]) -> Double? {
        guard !subjects.isEmpty else { return nil }
        let credits = subjects.reduce(0) { $0 + ($1.credits > 0 ? $1.credits : 1) }
        return subjects.reduce(0) { $0 + $1.points * ($1.credits > 0 ? $1.credits : 1) } / credits
    }

    /// A report card's overall percentage: the credit-weighted mean of its subjects' marks
    /// (a subject without credits counts as 1), nil when no subject has a mark yet.
    public static func overall(_ subjects: [(percentage: Double, credits: Double)]) -> Double? {
        guard !subjects.isEmpty else { return nil }
        let credits = subjects.reduce(0) { $0 + ($1.credits > 0 ? $1.credits : 1) }
        return subjects.reduce(0) { $0 + $1.percentage * ($1.credits > 0 ? $1.credits : 1) } / credits
    }

    /// Competition ranking: ties share a rank. GPAs are compared to 4 decimal places.
    public static func ranks<Key: Hashable>(_ gpas: [Key: Double]) -> [Key: Int] {
        let rounded = gpas.mapValues { ($0 * 10_000).rounded() }
        var result: [Key: Int] = [:]
        for (key, value) in rounded {
            result[key] = 1 + rounded.values.filter { $0 > value }.count
        }
        return result
    }
}

/// A student's results at a glance, across every term: the mean of the results' percentages,
/// each subject's mean and count, and a GPA from each subject's mean on the school's scale
/// (credit-weighted). EXEMPT results are left out; ABSENT ones count as 0.
public enum ResultsAverage {
    public struct Result: Sendable {
        public let subject: String
        public let percentage: Double
        public let credits: Double

        public init(subject: String, percentage: Double, credits: Double) {
            self.subject = subject
            self.percentage = percentage
            self.credits = credits
        }
    }

    public struct Summary: Sendable, Equatable {
        public let count: Int
        /// 0 when there is nothing yet.
        public let average: Double
        public let gpa: Double?
        public let letter: String?
        /// Subject -> (mean percentage, results counted).
        public let subjects: [String: Subject]
    }

    public struct Subject: Sendable, Equatable {
        public let average: Double
        public let count: Int
    }

    public static func summarize(_ results: [Result], scale: GradeScale) -> Summary {
        guard !results.isEmpty else { return Summary(count: 0, average: 0, gpa: nil, letter: nil, subjects: [:]) }
        var bySubject: [String: (total: Double, count: Int, credits: Double)] = [:]
        for result in results {
            let entry = bySubject[result.subject] ?? (0, 0, result.credits)
            bySubject[result.subject] = (entry.total + result.percentage, entry.count + 1, entry.credits)
        }
        let subjects = bySubject.mapValues { Subject(average: $0.total / Double($0.count), count: $0.count) }
        let average = results.reduce(0) { $0 + $1.percentage } / Double(results.count)
        // In a fixed order, so the same results always give the same last digit.
        let gpa = TermMarks.gpa(subjects.sorted { $0.key < $1.key }.map { key, subject in (scale.band(for: subject.average).points, bySubject[key]?.credits ?? 1) })
        return Summary(count: results.count, average: average, gpa: gpa, letter: scale.band(for: average).letter, subjects: subjects)
    }
}
