import Core
import Foundation

/// Days that tests on the real clock name. A teacher may change records only within the school's
/// edit window (7 days back by default), counted from the real clock wherever a test has none of
/// its own (a `hogwarts` process, a live server), so a register such a test takes as a teacher is
/// for today in the demo school's time zone: a fixed date stops being markable a week after it.
public enum DemoDays {
    public static var today: String { daysAgo(0) }

    /// A day `days` before today (0 to 6 stay inside the edit window), in the demo school's time
    /// zone, for a test that marks several days. After the demo's own records (to 2026-11-19).
    public static func daysAgo(_ days: Int) -> String {
        CivilDate(Date(), in: TimeZone(identifier: Kernel.demoTimeZone) ?? .gmt).adding(days: -days).description
    }
}
