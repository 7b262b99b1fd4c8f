import Core
import Foundation

/// Named queries Timetable answers for modules that do not depend on it (Attendance checks and
/// names periods only where the timetable is on). Their shapes are a contract: a field is never
/// renamed or removed under the same name; `TimetableQueryTests` checks the shape.
enum TimetablePublishedQueries {
    static let all: [NamedQueryProvider] = [
        NamedQueryProvider(SchoolPeriods.self, permission: TimetablePermissions.read) { _, context in
            try SchoolPeriods.answer(context)
        },
        NamedQueryProvider(SchoolClosures.self, permission: TimetablePermissions.read) { request, context in
            try SchoolClosures.answer(request, context)
        },
        SchoolDayQuery.provider,
    ]
}

/// The school's periods of the day (lessons and breaks), in order: a dozen rows, asked once per run.
public enum SchoolPeriods: NamedQuery {
    public static let name = "timetable.periods"

    public struct Request: Codable, Sendable {
        public init() {}
    }

    public struct Answer: Codable, Sendable, Equatable {
        public var periods: [Period]
    }

    public struct Period: Codable, Sendable, Equatable {
        public var code: String
        public var nameAr: String
        public var nameEn: String
        /// `HH:MM`, school time.
        public var startsAt: String
        public var endsAt: String
        public var isBreak: Bool
    }

    static func answer(_ context: ActionContext) throws -> Answer {
        let periods = try context.database.fetchAll(
            "SELECT code, name_ar, name_en, starts_at, ends_at, is_break FROM timetable_periods WHERE school_id = :school_id ORDER BY starts_at, code"
        ).map {
            Period(code: $0.string("code"), nameAr: $0.string("name_ar"), nameEn: $0.string("name_en"), startsAt: $0.string("starts_at"),
                   endsAt: $0.string("ends_at"), isBreak: ($0["is_break"] ?? 0) != 0)
        }
        return Answer(periods: periods)
    }
}

/// The school's holidays and closures that overlap a span of days: what a calendar shows as days off.
public enum SchoolClosures: NamedQuery {
    public static let name = "timetable.closures"

    public struct Request: Codable, Sendable {
        /// `YYYY-MM-DD`, both days included.
        public var from: String
        public var to: String
        public init(from: String, to: String) {
            self.from = from
            self.to = to
        }
    }

    public struct Answer: Codable, Sendable, Equatable {
        public var closures: [Closure]
    }

    public struct Closure: Codable, Sendable, Equatable {
        public var id: String
        public var name: String
        /// `YYYY-MM-DD`, both days included.
        public var startsOn: String
        public var endsOn: String
    }

    static func answer(_ request: Request, _ context: ActionContext) throws -> Answer {
        let closures = try context.database.fetchAll("""
            SELECT id, name, starts_on, ends_on FROM timetable_closures
            WHERE school_id = :school_id AND starts_on <= :to AND ends_on >= :from ORDER BY starts_on, id
            """, ["from": .text(request.from), "to": .text(request.to)]).map {
            Closure(id: $0.string("id"), name: $0.string("name"), startsOn: $0.string("starts_on"), endsOn: $0.string("ends_on"))
        }
        return Answer(closures: closures)
    }
}
