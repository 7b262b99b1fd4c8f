import Core
import Foundation
import Students

/// A student's attendance: every record in the range and the totals, rate and band.
public struct AttendanceHistory: Action {
    public struct Input: Codable, Sendable {
        /// Nil: the signed-in student, or a guardian's only child.
        public var grNumber: String?
        public var from: String?
        public var to: String?
        public init(grNumber: String? = nil, from: String? = nil, to: String? = nil) {
            self.grNumber = grNumber
            self.from = from
            self.to = to
        }
    }

    public struct Output: Codable, Sendable {
        public let grNumber: String
        public let studentName: String
        public let records: [AttendanceRecord]
        public let totals: AttendanceTotals
        public let rate: Double?
        public let band: RiskBand?
    }

    public static let id = "attendance.history"
    public static let permission = AttendancePermissions.read
    public static let isReadOnly = true

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        for date in [input.from, input.to].compactMap({ $0 }) where CivilDate(date) == nil { throw AttendanceError.invalidDate(date) }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        let student = try Roster.studentOfRead(input.grNumber, context)
        let records = try context.database.fetchAll("""
            \(AttendanceRecord.select) WHERE r.school_id = :school_id AND r.student_id = :student
              AND (:from IS NULL OR r.date >= :from) AND (:to IS NULL OR r.date <= :to)
            ORDER BY r.date, r.period
            """, ["student": .text(student.id), "from": SQLValue(input.from), "to": SQLValue(input.to)]).map(AttendanceRecord.init(row:))
        var totals = AttendanceTotals()
        for record in records { totals.add(record.status) }
        return Output(grNumber: student.grNumber, studentName: student.fullName, records: records, totals: totals, rate: totals.rate, band: totals.band)
    }
}

/// Counts and rates per student, per class and per day for a class or the whole school.
public struct AttendanceStats: Action {
    public struct Input: Codable, Sendable {
        /// Nil for the whole school (within the principal's scope).
        public var classCode: String?
        public var from: String?
        public var to: String?
        public init(classCode: String? = nil, from: String? = nil, to: String? = nil) {
            self.classCode = classCode
            self.from = from
            self.to = to
        }
    }

    public struct StudentLine: Codable, Sendable {
        public let grNumber: String
        public let name: String
        public let classCode: String
        public let totals: AttendanceTotals
        public let rate: Double?
        public let band: RiskBand?
        /// The highest absence threshold reached (e.g. 5 of 3,5,10,15), if any.
        public let thresholdReached: Int?
    }

    public struct GroupLine: Codable, Sendable {
        public let key: String
        public let totals: AttendanceTotals
        public let rate: Double?
    }

    public struct Output: Codable, Sendable {
        public let students: [StudentLine]
        public let classes: [GroupLine]
        public let days: [GroupLine]
        public let school: GroupLine
    }

    public static let id = "attendance.stats"
    public static let permission = AttendancePermissions.stats
    public static let isReadOnly = true

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        for date in [input.from, input.to].compactMap({ $0 }) where CivilDate(date) == nil { throw AttendanceError.invalidDate(date) }
        if let code = input.classCode {
            try ClassAccess.require(classID: try Roster.classID(code: code, context), named: code, context)
        }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        var arguments = StudentVisibility.arguments(for: context)
        arguments["from"] = SQLValue(input.from)
        arguments["to"] = SQLValue(input.to)
        arguments["class"] = SQLValue(try input.classCode.map { try Roster.classID(code: $0, context) })
        // Only the bounds given are in the text, so SQLite plans a range on the date index
        // (`:from IS NULL OR ...` would hide it and scan every record of the school).
        var conditions = ["r.school_id = :school_id"]
        if input.from != nil { conditions.append("r.date >= :from") }
        if input.to != nil { conditions.append("r.date <= :to") }
        if input.classCode != nil { conditions.append("r.class_id = :class") }
        // Records always have their student (students are archived, never deleted), so the whole
        // school needs no join to students to count them: only a narrower scope does.
        let fromRecords: String
        if context.scope == .school {
            fromRecords = "FROM attendance_records r"
        } else {
            fromRecords = "FROM attendance_records r JOIN students_v1_students s ON s.school_id = r.school_id AND s.id = r.student_id"
            conditions.append(StudentVisibility.viewerCondition(for: context.scope))
        }
        let filter = conditions.joined(separator: " AND ")
        let thresholds = AttendanceSettings.thresholds(try context.setting(AttendanceSettings.absenceThresholds)) ?? []

        // One pass over the records (ids, date and status only, along the date index) feeds
        // every breakdown: each student's totals per class, and each day's. Class and school
        // totals are sums of the students'; names are read for the students found, not joined
        // to every record.
        var tally = StatsTally()
        try context.database.forEachRow("SELECT r.student_id, r.class_id, r.date, r.status \(fromRecords) WHERE \(filter) ORDER BY r.date",
                                        arguments) { row in
            guard let status = row.text(3).flatMap(AttendanceStatus.init(rawValue:)) else { return }
            tally.add(student: row.string(0), classID: row.string(1), date: row.string(2), status: status)
        }
        let names = try Self.names(of: tally.studentIDs, context)
        let classCodes = try Self.classCodes(context)

        var students: [String: (name: String, classCode: String, totals: AttendanceTotals)] = [:]
        var classes: [String: AttendanceTotals] = [:]
        var school = AttendanceTotals()
        for (index, studentID) in tally.studentIDs.enumerated() {
            guard let student = names[studentID] else { continue }
            var entry = students[student.grNumber] ?? (student.name, "", AttendanceTotals())
            for (classID, totals) in tally.perClass[index] {
                guard let classCode = classCodes[classID] else { continue }
                // A student who moved class is listed under the first code, as before.
                entry.classCode = entry.classCode.isEmpty ? classCode : min(entry.classCode, classCode)
                entry.totals.add(totals)
                classes[classCode, default: AttendanceTotals()].add(totals)
                school.add(totals)
            }
            if !entry.classCode.isEmpty { students[student.grNumber] = entry }
        }
        let days = tally.allDays
        return Output(
            students: students.sorted { ($0.value.classCode, $0.key) < ($1.value.classCode, $1.key) }.map { gr, entry in
                StudentLine(grNumber: gr, name: entry.name, classCode: entry.classCode, totals: entry.totals, rate: entry.totals.rate,
                            band: entry.totals.band, thresholdReached: thresholds.last { entry.totals.absences >= $0 })
            },
            classes: classes.sorted { $0.key < $1.key }.map { GroupLine(key: $0.key, totals: $0.value, rate: $0.value.rate) },
            days: days.sorted { $0.key < $1.key }.map { GroupLine(key: $0.key, totals: $0.value, rate: $0.value.rate) },
            school: GroupLine(key: context.school.slug, totals: school, rate: school.rate))
    }

    /// Each student's GR number and name, read for the students counted (500 at a time).
    private static func names(of studentIDs: [String], _ context: ActionContext) throws -> [String: (grNumber: String, name: String)] {
        var names: [String: (grNumber: String, name: String)] = [:]
        names.reserveCapacity(studentIDs.count)
        for start in stride(from: 0, to: studentIDs.count, by: 500) {
            let chunk = Array(studentIDs[start..<min(start + 500, studentIDs.count)])
            let rows = try context.database.fetchAll("""
                SELECT id, gr_number, given_name || ' ' || surname FROM students_v1_students
                WHERE school_id = :school_id AND id IN (\(Array(repeating: "?", count: chunk.count).joined(separator: ", ")))
                """, values: chunk.map { .text($0) }) { row in (id: row.string(0), grNumber: row.string(1), name: row.string(2)) }
            for row in rows { names[row.id] = (row.grNumber, row.name) }
        }
        return names
    }

    /// Every class's code by id (a school has a few hundred classes a year at most).
    private static func classCodes(_ context: ActionContext) throws -> [String: String] {
        var codes: [String: String] = [:]
        try context.database.forEachRow("SELECT id, code FROM students_v1_classes WHERE school_id = :school_id") { row in
            codes[row.string(0)] = row.string(1)
        }
        return codes
    }
}

/// The counts of one pass over the records: per student and class, and per day.
private struct StatsTally {
    /// Students in the order first met; `perClass[i]` belongs to `studentIDs[i]`.
    var studentIDs: [String] = []
    var perClass: [[(classID: String, totals: AttendanceTotals)]] = []
    private var index: [String: Int] = [:]
    private(set) var days: [String: AttendanceTotals] = [:]
    /// The day being counted: records come in date order, so a day is looked up once, not per record.
    private var day = ""
    private var dayTotals = AttendanceTotals()

    mutating func add(student: String, classID: String, date: String, status: AttendanceStatus) {
        let position: Int
        if let known = index[student] {
            position = known
        } else {
            position = studentIDs.count
            index[student] = position
            studentIDs.append(student)
            perClass.append([])
        }
        if let slot = perClass[position].firstIndex(where: { $0.classID == classID }) {
            perClass[position][slot].totals.add(status)
        } else {
            var totals = AttendanceTotals()
            totals.add(status)
            perClass[position].append((classID, totals))
        }
        if date != day {
            flushDay()
            day = date
            dayTotals = days[date] ?? AttendanceTotals()
        }
        dayTotals.add(status)
    }

    private mutating func flushDay() {
        if !day.isEmpty { days[day] = dayTotals }
    }

    /// The days, with the last one counted.
    var allDays: [String: AttendanceTotals] {
        var all = days
        if !day.isEmpty { all[day] = dayTotals }
        return all
    }
}

/// The records with Ed-Fi attendance event categories, for state or trust reporting: rows that
/// the command prints as CSV (cells neutralized against spreadsheet formulas) or as JSON.
public struct ExportEdFi: Action {
    public struct Input: Codable, Sendable {
        public var classCode: String?
        public var from: String?
        public var to: String?
        public init(classCode: String? = nil, from: String? = nil, to: String? = nil) {
            self.classCode = classCode
            self.from = from
            self.to = to
        }
    }

    /// One attendance event, named as Ed-Fi names its fields.
    public struct Row: Codable, Sendable, Equatable {
        public let studentUniqueId: String
        public let eventDate: CivilDate
        /// Empty for a whole-day record.
        public let classPeriod: String
        public let attendanceEventCategoryDescriptor: String
        public let status: AttendanceStatus
        /// The class whose register holds the record (an Ed-Fi section is a class in one period).
        public let classCode: String
    }

    public static let id = "attendance.export-ed-fi"
    public static let permission = AttendancePermissions.stats
    public static let isReadOnly = true

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        try AttendanceStats().validate(.init(classCode: input.classCode, from: input.from, to: input.to), in: context)
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> [Row] {
        var arguments = StudentVisibility.arguments(for: context)
        arguments["from"] = SQLValue(input.from)
        arguments["to"] = SQLValue(input.to)
        arguments["class"] = SQLValue(try input.classCode.map { try Roster.classID(code: $0, context) })
        let records = try context.database.fetchAll("""
            \(AttendanceRecord.select) WHERE r.school_id = :school_id AND (:from IS NULL OR r.date >= :from) AND (:to IS NULL OR r.date <= :to)
              AND (:class IS NULL OR r.class_id = :class) AND \(StudentVisibility.viewerCondition(for: context.scope))
            ORDER BY r.date, s.gr_number, r.period
            """, arguments).map(AttendanceRecord.init(row:))
        return records.compactMap { record in
            guard let category = EdFiCategory.of(record.status) else { return nil }
            return Row(studentUniqueId: record.grNumber, eventDate: record.date, classPeriod: record.period == AttendancePeriod.wholeDay ? "" : record.period,
                       attendanceEventCategoryDescriptor: "uri://ed-fi.org/AttendanceEventCategoryDescriptor#\(category)", status: record.status,
                       classCode: record.classCode)
        }
    }

    /// The rows as CSV with Ed-Fi's column names; every cell goes through `CSVCell.neutralized`,
    /// so a GR number such as `=HYPERLINK(...)` is text, not a formula, when a school opens the file.
    public static func csv(_ rows: [Row]) -> String {
        var lines = ["StudentUniqueId,EventDate,ClassPeriod,AttendanceEventCategoryDescriptor,Status"]
        for row in rows {
            let cells = [row.studentUniqueId, row.eventDate.description, row.classPeriod, row.attendanceEventCategoryDescriptor, row.status.rawValue]
            lines.append(cells.map(CSVCell.field).joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

}
