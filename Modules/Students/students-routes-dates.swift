import Core

/// Dates as the contract sends them: every date is a `toISOString()` instant, so a day the
/// roster keeps as `YYYY-MM-DD` (a birthday, an enrolment) goes out as its midnight UTC,
/// `2013-01-26T00:00:00.000Z`, the value the web app's date columns give. The apps decode
/// every date with ISO 8601 and fail the whole response on a date-only string.
enum ContractDate {
    /// The day's midnight UTC; a text that is not a day is sent as it is.
    static func instant(_ day: String) -> String {
        CivilDate(day) == nil ? day : day + "T00:00:00.000Z"
    }

    /// How the OpenAPI document describes such a field.
    static let schema: APISchema = .dateTime
}
