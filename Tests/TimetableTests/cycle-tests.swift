import Core
import Testing
import Timetable

/// The Week A/B rules against the calendars that break naive code (school-standards.md §3).
@Suite("Week A/B cycle")
struct CycleTests {
    static func date(_ text: String) -> CivilDate {
        CivilDate(text) ?? CivilDate(dayNumber: 0)
    }

    static func calendar(mode: AdvanceMode = .calendarWeeks, termReset: Bool = false, anchor: String? = "2026-09-06",
                         workingDays: Set<Int> = [0, 1, 2, 3, 4], terms: [(String, String)] = [("2026-09-06", "2026-12-17"), ("2027-01-03", "2027-03-25")],
                         closures: [(String, String)] = [], overrides: [CycleOverride] = []) -> CycleCalendar {
        CycleCalendar(cycleLength: 2, workingDays: workingDays, mode: mode, termReset: termReset, anchor: anchor.map(date),
                      terms: terms.map { DateSpan(date($0.0), date($0.1)) }, closures: closures.map { DateSpan(date($0.0), date($0.1)) },
                      overrides: overrides)
    }

    func letters(_ calendar: CycleCalendar, from: String, weeks: Int) -> String {
        (0..<weeks).map { calendar.week(of: Self.date(from).adding(days: 7 * $0)).description }.joined()
    }

    @Test("dates are plain days: weekdays, leap years and formatting")
    func civilDates() {
        #expect(Self.date("2026-11-22").weekday == 0, "a Sunday")
        #expect(Self.date("2027-01-04").weekday == 1)
        #expect(CivilDate("2028-02-29") != nil && CivilDate("2027-02-29") == nil && CivilDate("2026-13-01") == nil)
        #expect(Self.date("2026-12-31").adding(days: 1).description == "2027-01-01")
    }

    @Test("calendar weeks alternate from the anchor, and every day of a week has the same letter")
    func alternation() {
        let calendar = Self.calendar()
        #expect(letters(calendar, from: "2026-09-06", weeks: 6) == "ABABAB")
        for day in 0..<5 {
            #expect(calendar.week(of: Self.date("2026-09-13").adding(days: day)) == .week(1))
        }
        #expect(calendar.week(of: Self.date("2026-09-12")) == .week(0), "Saturday belongs to the week that started on Sunday")
    }

    @Test("the year boundary and ISO week 53 of 2026 do not repeat a letter")
    func yearBoundaryAndWeek53() {
        // Monday-to-Friday school open over new year: ISO weeks 2026-W53 and 2027-W01 are both odd.
        let calendar = Self.calendar(anchor: "2026-11-30", workingDays: [1, 2, 3, 4, 5], terms: [("2026-11-30", "2027-02-12")])
        #expect(letters(calendar, from: "2026-11-30", weeks: 8) == "ABABABAB")
        #expect(calendar.week(of: Self.date("2026-12-28")) != calendar.week(of: Self.date("2027-01-04")), "W53 and W01 differ")
    }

    @Test("a one-week half-term: calendar weeks count it, school weeks skip it, term reset restarts at A")
    func halfTerm() {
        let terms = [("2026-09-06", "2026-10-22"), ("2026-11-01", "2026-12-17")] // half-term: week of 25 October
        let calendar = Self.calendar(mode: .calendarWeeks, terms: terms)
        let school = Self.calendar(mode: .schoolWeeks, terms: terms)
        let reset = Self.calendar(mode: .schoolWeeks, termReset: true, terms: terms)
        // Weeks from 11 Oct: 11 Oct, 18 Oct, 25 Oct (no school), 1 Nov, 8 Nov.
        #expect(letters(calendar, from: "2026-10-11", weeks: 5) == "BA-AB")
        #expect(letters(school, from: "2026-10-11", weeks: 5) == "BA-BA")
        #expect(letters(reset, from: "2026-10-11", weeks: 5) == "BA-AB")
        #expect(letters(Self.calendar(mode: .calendarWeeks, termReset: true, terms: terms), from: "2026-10-11", weeks: 5) == "BA-AB")
    }

    @Test("a closure that empties a whole week is skipped in school-week mode only")
    func closedWeek() {
        let closures = [("2026-09-20", "2026-09-24")] // floods: the whole week of 20 September
        #expect(letters(Self.calendar(mode: .calendarWeeks, closures: closures), from: "2026-09-06", weeks: 5) == "AB-BA", "the closed week still counted")
        #expect(letters(Self.calendar(mode: .schoolWeeks, closures: closures), from: "2026-09-06", weeks: 5) == "AB-AB", "the closed week did not advance the cycle")
        let oneDay = [("2026-09-20", "2026-09-20")]
        #expect(letters(Self.calendar(mode: .schoolWeeks, closures: oneDay), from: "2026-09-06", weeks: 4) == "ABAB", "a week with any school day still counts")
    }

    @Test("a term that starts mid-week makes that week A and the next one B")
    func midWeekStart() {
        let calendar = Self.calendar(mode: .schoolWeeks, termReset: true, terms: [("2026-09-06", "2026-12-17"), ("2027-01-06", "2027-03-25")])
        #expect(calendar.week(of: Self.date("2027-01-06")) == .week(0), "Wednesday start")
        #expect(!calendar.isSchoolDay(Self.date("2027-01-05")), "the Tuesday before the term is no school day")
        #expect(calendar.week(of: Self.date("2027-01-05")) == .week(0), "but it sits in the term's first week, A")
        #expect(calendar.week(of: Self.date("2027-01-10")) == .week(1), "the next Sunday starts B")
    }

    @Test("overrides win: one week only, or a restart from that week on")
    func overrides() {
        let oneWeek = Self.calendar(overrides: [CycleOverride(week: Self.date("2026-09-20"), index: 1, kind: .oneWeek)])
        #expect(letters(oneWeek, from: "2026-09-06", weeks: 5) == "ABBBA", "20 September is B, then the cycle carries on as before")

        let restart = Self.calendar(overrides: [CycleOverride(week: Self.date("2026-09-20"), index: 1, kind: .restart)])
        #expect(letters(restart, from: "2026-09-06", weeks: 5) == "ABBAB")
    }

    @Test("days off show no letter, and the next school day is found")
    func nonSchoolDays() {
        let calendar = Self.calendar(closures: [("2026-12-18", "2027-01-02")])
        #expect(!calendar.isSchoolDay(Self.date("2026-09-11")), "a Friday in a Sunday-to-Thursday school")
        #expect(calendar.nextSchoolDay(onOrAfter: Self.date("2026-09-11")) == Self.date("2026-09-13"))
        #expect(calendar.week(of: Self.date("2026-12-27")) == .noSchool)
        #expect(calendar.nextSchoolDay(onOrAfter: Self.date("2026-12-20")) == Self.date("2027-01-03"))
    }

    @Test("a one-week cycle is always A, and longer cycles are possible")
    func cycleLengths() {
        let single = CycleCalendar(cycleLength: 1, workingDays: [0, 1, 2, 3, 4], mode: .calendarWeeks, termReset: false, anchor: Self.date("2026-09-06"), terms: [], closures: [], overrides: [])
        #expect(letters(single, from: "2026-09-06", weeks: 3) == "AAA")
        let triple = CycleCalendar(cycleLength: 3, workingDays: [0, 1, 2, 3, 4], mode: .calendarWeeks, termReset: false, anchor: Self.date("2026-09-06"), terms: [], closures: [], overrides: [])
        #expect(letters(triple, from: "2026-09-06", weeks: 4) == "ABCA")
        #expect(triple.week(of: Self.date("2026-08-30")) == .week(2), "before the anchor counts backwards")
    }
}
