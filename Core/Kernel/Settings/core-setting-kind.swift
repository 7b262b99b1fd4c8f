/// What a setting holds, as a person would be asked for it: the console draws its control and
/// says what it accepts in words from this alone, so a new module's settings need no page code.
/// The stored text stays what `expected` describes to the command line.
public enum SettingKind: Sendable, Equatable {
    /// Yes or no, stored `true` / `false`.
    case flag
    /// A whole number within bounds, in a unit when it has one.
    case number(ClosedRange<Int>, unit: SettingUnit?)
    /// One of a fixed set of words; a module may give each a label (`<module>.setting.<key>.<word>`).
    case choice([String])
    /// Days of the week, stored as their numbers in order: `0,1,2,3,4`, 0 = Sunday ... 6 = Saturday.
    case weekdays
    /// Whole numbers above zero, stored `3,5,10`.
    case numbers
    /// A calendar day, stored `YYYY-MM-DD`.
    case date
    case email
    case webAddress
    /// A file on the server: the operator's to choose, not a school's (see the console's settings page).
    case file
    /// Anything else; a module may describe it with `<module>.setting.<key>.hint`.
    case text
}

/// The unit a number is counted in, named in the console's own words.
public enum SettingUnit: String, Sendable {
    case minutes, days, weeks, megabytes
}
