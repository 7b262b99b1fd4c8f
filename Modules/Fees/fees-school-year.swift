import Foundation
import Core
import Students

/// The school year a fees action works in, with its days and terms, read through what Students publishes.
struct FeesSchoolYear: Sendable, Equatable {
    let id: String
    let name: String
    let startsOn: CivilDate
    let endsOn: CivilDate
    /// Each term's first day, earliest first.
    let termStarts: [CivilDate]

    /// The year named (its name, `2026-2027`, or id), else the current one.
    static func named(_ reference: String?, _ context: ActionContext) throws -> FeesSchoolYear {
        let years = try StudentsPublishedReads.schoolYears(context)
        let wanted = try reference ?? Roster.currentSchoolYearID(context) ?? ""
        guard let year = years.first(where: { $0.id == wanted || $0.name == wanted }),
              let start = CivilDate(year.startsOn), let end = CivilDate(year.endsOn)
        else { throw FeesError.unknownSchoolYear(reference ?? "") }
        let terms = try context.database.fetchAll("SELECT starts_on FROM students_v1_terms WHERE school_id = :school_id AND school_year_id = :year ORDER BY starts_on",
                                                  ["year": .text(year.id)]).compactMap { CivilDate($0.string("starts_on")) }
        return FeesSchoolYear(id: year.id, name: year.name, startsOn: start, endsOn: end, termStarts: terms.isEmpty ? [start] : terms)
    }

    var days: Int { endsOn.dayNumber - startsOn.dayNumber + 1 }

    /// The dates an item falls due in this year.
    func dueDates(_ schedule: FeeSchedule, first: CivilDate) -> [CivilDate] {
        switch schedule {
        case .once: return [first]
        case .perTerm: return termStarts
        case .monthly:
            var dates: [CivilDate] = []
            let parts = Self.parts(first), day = parts.2
            var year = parts.0, month = parts.1
            while let date = Self.date(year, month, day), date <= endsOn {
                dates.append(date)
                month += 1
                if month > 12 { month = 1; year += 1 }
            }
            return dates
        }
    }

    static func parts(_ date: CivilDate) -> (Int, Int, Int) {
        let pieces = date.description.split(separator: "-").compactMap { Int($0) }
        guard pieces.count == 3 else { return (1970, 1, 1) }
        return (pieces[0], pieces[1], pieces[2])
    }

    /// The day in that month, or its last day for a day the month lacks (the 31st in April is the 30th).
    static func date(_ year: Int, _ month: Int, _ day: Int) -> CivilDate? {
        for candidate in stride(from: min(day, 31), through: 28, by: -1) {
            let text = String(format: "%04d-%02d-%02d", year, month, candidate)
            if let date = CivilDate(text), date.description == text { return date }
        }
        return CivilDate(String(format: "%04d-%02d-%02d", year, month, min(day, 28)))
    }
}
