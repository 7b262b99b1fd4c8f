import Core
import Foundation

/// Writes checked import rows in batches: one multi-row INSERT for the students and one for
/// their enrolments per batch, each statement prepared once per connection and reused, with the
/// school year and class ids resolved once for the whole file instead of once per row.
///
/// Writes exactly what `StudentWriter.insert` writes for each row (the same values, defaults
/// and search key), so an imported student is indistinguishable from one added by hand.
struct ImportWriter {
    /// Rows per statement: 10 parameters a row keeps a batch far below SQLite's parameter limit.
    static let batchSize = 64

    private let context: ActionContext
    private let classIDs: [String: String]
    private let today: String
    private let now: SQLValue
    private var schoolYear: String?

    init(_ context: ActionContext, classIDs: [String: String]) {
        self.context = context
        self.classIDs = classIDs
        today = Roster.today(context)
        now = SQLValue(context.now)
    }

    /// Inserts `rows` in order, each tied to the account in `userIDs` at its index (none without
    /// them), reporting progress every 200 rows; returns the new students' ids in order.
    @discardableResult
    mutating func insert(_ rows: [StudentFields], userIDs: [String?] = [], progress: ProgressReporter?, label: String) throws -> [String] {
        var ids: [String] = []
        ids.reserveCapacity(rows.count)
        var start = 0
        while start < rows.count {
            if start % 200 < Self.batchSize { progress?(start, rows.count, label) }
            let end = min(start + Self.batchSize, rows.count)
            try insert(rows[start..<end], userIDs: userIDs.isEmpty ? [] : Array(userIDs[start..<end]), into: &ids)
            start = end
        }
        return ids
    }

    private mutating func insert(_ batch: ArraySlice<StudentFields>, userIDs: [String?], into ids: inout [String]) throws {
        var students: SQLArguments = ["now": now]
        students.reserveCapacity(batch.count * ImportSQL.studentKeys[0].count + 1)
        var enrolments: SQLArguments = [:]
        var enrolled = 0
        for (index, fields) in batch.enumerated() {
            // Time-ordered: thousands of students in one transaction land at the end of each index.
            let id = context.newOrderedID()
            ids.append(id)
            let given = ImportTrim.whitespace(fields.givenName)
            let surname = ImportTrim.whitespace(fields.surname)
            let enrolledOn = fields.enrolledOn.flatMap { $0.isEmpty ? nil : $0 } ?? today
            let values: [String] = [
                id, ImportTrim.whitespace(fields.grNumber), given, surname,
                (fields.nameLanguage.flatMap { $0.isEmpty ? nil : $0 } ?? "ar").lowercased(), fields.dateOfBirth, fields.gender.uppercased(),
                (fields.status.flatMap { $0.isEmpty ? nil : $0 } ?? StudentStatus.active.rawValue).uppercased(), enrolledOn,
                ArabicSearch.fold("\(given) \(surname)"),
            ]
            for (key, value) in zip(ImportSQL.studentKeys[index], values) { students[key] = .text(value) }
            students[ImportSQL.studentKeys[index][10]] = SQLValue(userIDs.isEmpty ? nil : userIDs[index])
            if let code = fields.classCode, !code.isEmpty {
                let keys = ImportSQL.enrolmentKeys[enrolled]
                enrolments[keys[0]] = .text(id)
                enrolments[keys[1]] = .text(try classID(code))
                enrolments[keys[2]] = .text(enrolledOn)
                enrolled += 1
            }
        }
        try context.database.execute(ImportSQL.students(batch.count), students)
        if enrolled > 0 {
            enrolments["year"] = .text(try year())
            try context.database.execute(ImportSQL.enrolments(enrolled), enrolments)
        }
    }

    /// The current school year, read once (only when some row names a class).
    private mutating func year() throws -> String {
        if let schoolYear { return schoolYear }
        let year = try Roster.requireSchoolYear(context)
        schoolYear = year
        return year
    }

    private mutating func classID(_ code: String) throws -> String {
        _ = try year()
        guard let id = classIDs[code] else { throw StudentsError.unknownClass(code) }
        return id
    }
}

/// The batch statements' text and parameter names, built once.
enum ImportSQL {
    static let studentKeys: [[String]] = (0..<ImportWriter.batchSize).map { row in
        ["i", "g", "f", "s", "l", "d", "x", "t", "e", "k", "a"].map { "\($0)\(row)" }
    }
    static let enrolmentKeys: [[String]] = (0..<ImportWriter.batchSize).map { row in ["p", "c", "o"].map { "\($0)\(row)" } }

    private static let fullStudents = studentsText(ImportWriter.batchSize)
    private static let fullEnrolments = enrolmentsText(ImportWriter.batchSize)

    static func students(_ rows: Int) -> String { rows == ImportWriter.batchSize ? fullStudents : studentsText(rows) }
    static func enrolments(_ rows: Int) -> String { rows == ImportWriter.batchSize ? fullEnrolments : enrolmentsText(rows) }

    private static func studentsText(_ rows: Int) -> String {
        let values = studentKeys.prefix(rows).map { keys in
            "(:school_id, " + keys.prefix(9).map { ":\($0)" }.joined(separator: ", ") + ", :\(keys[10]), :\(keys[9]), :now, :now)"
        }
        return """
            INSERT INTO students_students (school_id, id, gr_number, given_name, surname, name_language, date_of_birth, gender, status,
                enrolled_on, user_id, search_key, created_at, updated_at) VALUES
            """ + " " + values.joined(separator: ", ")
    }

    private static func enrolmentsText(_ rows: Int) -> String {
        let values = enrolmentKeys.prefix(rows).map { keys in "(:school_id, :\(keys[0]), :year, :\(keys[1]), :\(keys[2]))" }
        return "INSERT INTO students_enrolments (school_id, student_id, school_year_id, class_id, enrolled_on) VALUES " + values.joined(separator: ", ")
            + " ON CONFLICT (school_id, student_id, school_year_id) DO UPDATE SET class_id = excluded.class_id, enrolled_on = excluded.enrolled_on"
    }
}
