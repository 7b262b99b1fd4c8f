import Core

// The questions Events asks modules it does not depend on, as their providers answer them (by
// name and shape, as events cross the kernel): Timetable's holidays and Grades' exam dates. Where
// the module is off, or not installed, the calendar goes on without them; EventsTests checks each
// shape against the provider's own type.

/// Timetable's holidays and closures overlapping a span of days.
enum ClosuresQuery: NamedQuery {
    static let name = "timetable.closures"

    struct Request: Codable, Sendable, Equatable {
        var from: String
        var to: String
    }

    struct Answer: Codable, Sendable, Equatable {
        var closures: [Closure]
    }

    struct Closure: Codable, Sendable, Equatable {
        var id: String
        var name: String
        var startsOn: String
        var endsOn: String
    }
}

/// Grades' exam and test dates in a span of days, by class.
enum ExamDatesQuery: NamedQuery {
    static let name = "grades.exam-dates"

    struct Request: Codable, Sendable, Equatable {
        var from: String
        var to: String
    }

    struct Answer: Codable, Sendable, Equatable {
        var exams: [Exam]
    }

    struct Exam: Codable, Sendable, Equatable {
        var id: String
        var classID: String
        var subjectID: String
        var title: String
        var kind: String
        var date: String
    }
}
