import Core

/// How a school advances its cycle of weeks.
public enum AdvanceMode: String, Codable, Sendable, CaseIterable {
    /// Every calendar week after the anchor advances the cycle, holidays included (FamilyHub's rule).
    case calendarWeeks = "calendar-weeks"
    /// Only weeks with at least one school day advance it.
    case schoolWeeks = "school-weeks"
}

/// An explicit decision about one week, which always wins over the computed letter.
public struct CycleOverride: Hashable, Sendable, Codable {
    public enum Kind: String, Codable, Sendable {
        /// "This week is B", then carry on as before.
        case oneWeek = "ONE_WEEK"
        /// "From this week on we are on B, then A, ...".
        case restart = "RESTART"
    }

    public let week: CivilDate
    public let index: Int
    public let kind: Kind

    public init(week: CivilDate, index: Int, kind: Kind) {
        self.week = week
        self.index = index
        self.kind = kind
    }
}

/// Which week of the cycle a date falls in: a letter (A, B, ...) or no school at all.
///
/// In JSON it is the letter itself (`"A"`, `"B"`) or `null` for a week without school: the
/// synthesized form leaked Swift's case layout (`{"week": {"_0": 1}}`) to every client.
public enum CycleWeek: Hashable, Sendable, Codable, CustomStringConvertible {
    case week(Int)
    case noSchool

    public static func letter(_ index: Int) -> String { String(UnicodeScalar(UInt8(65 + index % 26))) }

    /// The index of a week letter (`A` is 0), nil for anything else.
    public static func index(ofLetter text: String) -> Int? {
        guard text.count == 1, let scalar = text.unicodeScalars.first, (65...90).contains(scalar.value) else { return nil }
        return Int(scalar.value) - 65
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .noSchool
            return
        }
        let text = try container.decode(String.self)
        guard let index = Self.index(ofLetter: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "A week is a letter A-Z or null, not \(text)")
        }
        self = .week(index)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .week(let index): try container.encode(Self.letter(index))
        case .noSchool: try container.encodeNil()
        }
    }

    public var description: String {
        switch self {
        case .week(let index): Self.letter(index)
        case .noSchool: "-"
        }
    }
}

/// A school's calendar and cycle rules, answering "which week is it" for any date.
///
/// Built once from the settings and calendar rows; school weeks are counted ahead of time
/// into a prefix table, so each question costs a few comparisons, never a walk through the
/// calendar. ISO week numbers are never used: their parity repeats a letter in 53-week years.
public struct CycleCalendar: Sendable {
    public let cycleLength: Int
    public let workingDays: Set<Int>
    public let mode: AdvanceMode
    public let termReset: Bool
    public let anchor: CivilDate?
    public let terms: [DateSpan]
    public let closures: [DateSpan]
    public let overrides: [CycleOverride]
    /// The weekday weeks start on: the first working day after a day off.
    public let weekStartDay: Int

    /// Prefix counts of school weeks from `tableStart` (a week start), one entry per week.
    private let tableStart: CivilDate
    private let schoolWeeksBefore: [Int]

    public init(cycleLength: Int, workingDays: Set<Int>, mode: AdvanceMode, termReset: Bool, anchor: CivilDate?,
                terms: [DateSpan], closures: [DateSpan], overrides: [CycleOverride]) {
        self.cycleLength = max(1, cycleLength)
        self.workingDays = workingDays.isEmpty ? [0, 1, 2, 3, 4] : workingDays
        self.mode = mode
        self.termReset = termReset
        self.anchor = anchor
        self.terms = terms.sorted { $0.start < $1.start }
        self.closures = closures
        self.overrides = overrides.sorted { $0.week < $1.week }
        let days = self.workingDays
        weekStartDay = (0..<7).first { days.contains($0) && !days.contains(($0 + 6) % 7) } ?? 0

        // The table spans every date the rules mention, with a year of margin on each side.
        let mentioned = [anchor].compactMap { $0 } + terms.flatMap { [$0.start, $0.end] } + closures.flatMap { [$0.start, $0.end] } + overrides.map(\.week)
        let first = (mentioned.min() ?? CivilDate(dayNumber: 0)).adding(days: -366)
        let last = (mentioned.max() ?? CivilDate(dayNumber: 0)).adding(days: 366)
        let start = Self.weekStart(of: first, startDay: weekStartDay)
        var counts = [0]
        var week = start
        while week <= last {
            let school = (0..<7).contains { Self.isSchoolDay(week.adding(days: $0), workingDays: days, terms: terms, closures: closures) }
            counts.append((counts.last ?? 0) + (school ? 1 : 0))
            week = week.adding(days: 7)
        }
        tableStart = start
        schoolWeeksBefore = counts
    }

    /// The first day of the school week holding `date`.
    public func weekStart(of date: CivilDate) -> CivilDate { Self.weekStart(of: date, startDay: weekStartDay) }

    public func isSchoolDay(_ date: CivilDate) -> Bool {
        Self.isSchoolDay(date, workingDays: workingDays, terms: terms, closures: closures)
    }

    public func isSchoolWeek(_ date: CivilDate) -> Bool {
        let start = weekStart(of: date)
        return (0..<7).contains { isSchoolDay(start.adding(days: $0)) }
    }

    /// The week of the cycle for `date`. Explicit overrides win; a week without school days has no letter.
    public func week(of date: CivilDate) -> CycleWeek {
        let week = weekStart(of: date)
        if let pinned = overrides.last(where: { $0.kind == .oneWeek && $0.week == week }) {
            return .week(pinned.index % cycleLength)
        }
        guard isSchoolWeek(week) else { return .noSchool }
        let (base, offset) = base(for: week)
        let steps = switch mode {
        case .calendarWeeks: (week.dayNumber - base.dayNumber) / 7
        case .schoolWeeks: schoolWeeks(from: base, to: week)
        }
        return .week(((offset + steps) % cycleLength + cycleLength) % cycleLength)
    }

    /// The next school day on or after `date` (within a year), if any.
    public func nextSchoolDay(onOrAfter date: CivilDate) -> CivilDate? {
        (0..<366).lazy.map { date.adding(days: $0) }.first(where: isSchoolDay)
    }

    /// Where counting starts for a week: the latest of the anchor, the start of the current term
    /// (with term reset) and the latest restart override, each with the letter it starts on.
    private func base(for week: CivilDate) -> (CivilDate, Int) {
        var candidates: [(CivilDate, Int)] = []
        if let anchor { candidates.append((weekStart(of: anchor), 0)) }
        else if let first = terms.first { candidates.append((weekStart(of: first.start), 0)) }
        if termReset, let term = terms.last(where: { weekStart(of: $0.start) <= week }) {
            candidates.append((weekStart(of: term.start), 0))
        }
        if let restart = overrides.last(where: { $0.kind == .restart && $0.week <= week }) {
            candidates.append((weekStart(of: restart.week), restart.index))
        }
        let before = candidates.filter { $0.0 <= week }
        return before.max { $0.0 < $1.0 } ?? candidates.min { $0.0 < $1.0 } ?? (week, 0)
    }

    /// School weeks in [from, to) (negative when `to` comes first), from the prefix table.
    private func schoolWeeks(from: CivilDate, to: CivilDate) -> Int {
        schoolWeeksBefore(to) - schoolWeeksBefore(from)
    }

    /// School weeks from the table's start to `week`; walks only for dates beyond the table,
    /// which lie a year or more away from every calendar entry.
    private func schoolWeeksBefore(_ week: CivilDate) -> Int {
        let index = (week.dayNumber - tableStart.dayNumber) / 7
        if index < 0 { return -walkSchoolWeeks(from: week, to: tableStart) }
        if index < schoolWeeksBefore.count { return schoolWeeksBefore[index] }
        let tableEnd = tableStart.adding(days: 7 * (schoolWeeksBefore.count - 1))
        return (schoolWeeksBefore.last ?? 0) + walkSchoolWeeks(from: tableEnd, to: week)
    }

    private func walkSchoolWeeks(from: CivilDate, to: CivilDate) -> Int {
        stride(from: from.dayNumber, to: to.dayNumber, by: 7).filter { isSchoolWeek(CivilDate(dayNumber: $0)) }.count
    }

    static func weekStart(of date: CivilDate, startDay: Int) -> CivilDate {
        date.adding(days: -((date.weekday - startDay + 7) % 7))
    }

    static func isSchoolDay(_ date: CivilDate, workingDays: Set<Int>, terms: [DateSpan], closures: [DateSpan]) -> Bool {
        guard workingDays.contains(date.weekday) else { return false }
        if !terms.isEmpty && !terms.contains(where: { $0.contains(date) }) { return false }
        return !closures.contains { $0.contains(date) }
    }
}
