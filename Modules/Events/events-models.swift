import Core
import Foundation

/// What kind of day or event an entry is, in the contract's lower-case words.
public enum EventType: String, Codable, Sendable, CaseIterable {
    case academic, sports, cultural, meeting, trip, holiday, exam, other
}

/// One entry of a person's calendar: an event of the school's, a holiday from the timetable's
/// calendar (`holiday-<id>`), or an exam or test date from Grades (`exam-<id>`).
public struct CalendarEntry: Codable, Sendable, Equatable {
    public let id: String
    public let title: String
    public let description: String
    public let type: EventType
    /// `YYYY-MM-DD`, both days included.
    public let startsOn: String
    public let endsOn: String
    /// `HH:MM` in the school's time zone; nil for a whole day.
    public let startTime: String?
    public let endTime: String?
    public let location: String
    /// The class it is for (`7A`); nil for the whole school.
    public let classCode: String?
    public let organizerName: String
    public let cancelled: Bool
    public let registrationRequired: Bool
    public let maxAttendees: Int?
    /// How many have registered (including the waiting list).
    public let registrations: Int
    /// The caller's place: nil, or registered, or waiting for a seat.
    public let myRegistration: EventRegistration?
    /// Whether the caller put it on the calendar.
    public let organizedByMe: Bool
    public let createdAt: Date?

    /// An event of the school's own, as opposed to a holiday or an exam date shown beside them.
    public var isEvent: Bool { !id.hasPrefix(CalendarEntry.holidayPrefix) && !id.hasPrefix(CalendarEntry.examPrefix) }

    static let holidayPrefix = "holiday-"
    static let examPrefix = "exam-"
}

/// A registration's state, in the contract's words.
public enum EventRegistration: String, Codable, Sendable, CaseIterable {
    case registered = "REGISTERED"
    case waitlisted = "WAITLISTED"
}
