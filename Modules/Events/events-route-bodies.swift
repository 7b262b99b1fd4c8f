import Core
import Foundation

// The bodies the events routes answer with; each route's OpenAPI schema is read from its type.

/// An entry's state, in the contract's words.
enum EventStatus: String, Codable, Sendable, CaseIterable {
    case scheduled = "SCHEDULED"
    case cancelled = "CANCELLED"
}

/// One entry of the caller's calendar, as the apps list it.
struct EventItem: Codable, Sendable {
    let id: String
    let title: String
    let description: String
    let startDate: APIInstant
    let startTime: Nullable<String>
    let endTime: Nullable<String>
    let location: String
    let type: EventType
    let isPublic: Bool
    let organizerName: String
    let status: EventStatus

    init(_ entry: CalendarEntry) {
        id = entry.id
        title = entry.title
        description = entry.description
        startDate = .midnight(of: entry.startsOn)
        startTime = Nullable(entry.startTime)
        endTime = Nullable(entry.endTime)
        location = entry.location
        type = entry.type
        isPublic = entry.classCode == nil
        organizerName = entry.organizerName
        status = entry.cancelled ? .cancelled : .scheduled
    }
}

/// What the detail adds to the list's keys: registration, where `current_attendees` have a seat
/// and `registration_count` counts the waiting list too. `target_audience` is `school` or the class's code.
struct EventRegistrationState: Codable, Sendable {
    let endDate: APIInstant
    let registrationRequired: Bool
    let maxAttendees: Nullable<Int>
    let currentAttendees: Int
    let registrationCount: Int
    let targetAudience: String
    let notes: Nullable<String>
    let createdAt: Nullable<Date>
    let isRegistered: Bool
    let registrationStatus: Nullable<EventRegistration>

    init(_ entry: CalendarEntry) {
        endDate = .midnight(of: entry.endsOn)
        registrationRequired = entry.registrationRequired
        maxAttendees = Nullable(entry.maxAttendees)
        currentAttendees = entry.maxAttendees.map { min($0, entry.registrations) } ?? entry.registrations
        registrationCount = entry.registrations
        targetAudience = entry.classCode ?? "school"
        // Events keep no notes.
        notes = Nullable(nil)
        createdAt = Nullable(entry.createdAt)
        isRegistered = entry.myRegistration != nil
        registrationStatus = Nullable(entry.myRegistration)
    }
}

/// One entry in full: the list's keys and, flat in the same object, its registration.
typealias EventDetail = APIMerged<EventItem, EventRegistrationState>

extension APIMerged where Base == EventItem, Extra == EventRegistrationState {
    init(_ entry: CalendarEntry) {
        self.init(EventItem(entry), EventRegistrationState(entry))
    }
}

/// A registration's outcome: a seat or the waiting list, and the sentence saying which.
struct EventRegistered: Codable, Sendable {
    let success: Bool
    let status: EventRegistration
    let message: String
}
