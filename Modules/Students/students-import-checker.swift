import Core
import Foundation

/// The checks of one row against the rules and against the file and school so far.
struct RowChecker {
    let context: ActionContext
    let today: String
    let taken: Set<String>
    var seatsLeft: [String: Int] = [:]
    /// The current year's classes by code, for the writes.
    var classIDs: [String: String] = [:]
    var seen: [String: Int] = [:]

    init(_ context: ActionContext) throws {
        self.context = context
        today = Roster.today(context)
        for schoolClass in try ListClasses().perform(.init(), in: context) {
            seatsLeft[schoolClass.code] = schoolClass.capacity - schoolClass.enrolled
            classIDs[schoolClass.code] = schoolClass.id
        }
        // One read of the school's GR numbers instead of one query per row.
        var taken: Set<String> = []
        try context.database.forEachRow("SELECT gr_number FROM students_students WHERE school_id = :school_id AND archived_at IS NULL") {
            taken.insert($0.string("gr_number"))
        }
        self.taken = taken
    }

    mutating func problems(_ fields: StudentFields, row: Int) -> [ImportProblem] {
        var problems: [ImportProblem] = []
        func add(_ column: String, _ key: String, _ arguments: [String: String] = [:]) {
            problems.append(ImportProblem(row: row, column: column, reason: context.localizer(key, arguments)))
        }
        for problem in StudentRules.problems(fields, today: today) { add(problem.column, problem.key, problem.arguments) }
        if let first = seen[fields.grNumber] {
            add("gr_number", "students.invalid.duplicate-row", ["row": String(first)])
        } else if !fields.grNumber.isEmpty {
            seen[fields.grNumber] = row
            if taken.contains(fields.grNumber) { add("gr_number", "students.invalid.gr-taken") }
        }
        if let code = fields.classCode, !code.isEmpty {
            if let left = seatsLeft[code] {
                if left <= 0 { add("class", "students.invalid.class-full") }
                seatsLeft[code] = left - 1
            } else {
                add("class", "students.invalid.unknown-class")
            }
        }
        return problems
    }
}
