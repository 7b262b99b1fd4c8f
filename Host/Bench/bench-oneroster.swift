import Auth
import Core
import Foundation
import GRDB
import OneRoster
import Students

/// `hogwarts-bench --oneroster [--quick] [--json]`: a OneRoster set of 10,000 users and 40,000
/// enrollments imported through `oneroster.import` (parse, check every row, then the Students and
/// Auth actions in one transaction), beside a floor that writes the same rows into the same
/// tables with prepared statements in one transaction (no parsing, no checks).
struct OneRosterBench {
    let quick: Bool

    func run() throws -> [Figure] {
        let set = BenchOneRosterSet(students: quick ? 480 : 9_600)
        let directory = FileManager.default.temporaryDirectory.appending(path: "hogwarts-bench-oneroster-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appending(path: "bench.sqlite").path
        let kernel = try Kernel(databasePath: path, modules: [AuthModule(), StudentsModule(), OneRosterModule()])
        try kernel.migrate()
        let school = try kernel.createSchool(NewSchool(slug: "bench", name: LocalizedText(ar: "مدرسة القياس", en: "Bench School")))
        let admin = Principal(userID: "bench-admin", role: .admin, schoolID: school.id, displayName: "bench")
        try kernel.setSetting("auth.password-hash-cost", to: "10", for: school.id, by: admin)
        let phases = PhaseLog()
        let progress: ProgressReporter = { done, total, label in phases.note(label) }
        var report: OneRosterImportReport?
        // Each side is a profiled region (bench-profile.swift): under callgrind the import is dump 1, the floor dump 2.
        let ours = try Clock.time {
            try profiledRegion { report = try kernel.run(ImportOneRoster.self, .init(files: set.files), as: admin, in: school.id, progress: progress) }
        }
        phases.note("commit")
        FileHandle.standardError.write(Data(("oneroster phases: " + phases.summary(total: ours) + "\n").utf8))
        var configuration = Configuration()
        configuration.journalMode = .wal
        let raw = try DatabaseQueue(path: path, configuration: configuration)
        try raw.writeWithoutTransaction { try $0.execute(sql: "PRAGMA synchronous = FULL") }
        let counts = try Self.rowCounts(raw, school: school.id)
        let floor = try Clock.time { try profiledRegion { try Self.floor(raw, counts: counts) } }
        let written = counts.values.reduce(0, +)
        let created = report?.created.map { "\($0.value) \($0.key)" }.sorted().joined(separator: ", ") ?? ""
        FileHandle.standardError.write(Data("oneroster: \(set.userCount) users, \(set.enrollmentCount) enrollments -> \(created); \(written) rows\n".utf8))
        return [Figure(scenario: "OneRoster import, \(set.userCount) users and \(set.enrollmentCount) enrollments", rows: written,
                       seconds: ours, floorSeconds: floor, floorKind: "same rows, one transaction", target: "3x")]
    }

    static let tables = ["auth_users", "students_students", "students_enrolments", "students_classes", "students_teaching", "students_subjects",
                         "students_year_levels", "students_terms", "students_school_years", "oneroster_ids", "oneroster_set_password_codes"]

    /// How many rows the import wrote to each table: what the floor writes again.
    static func rowCounts(_ raw: DatabaseQueue, school: String) throws -> [String: Int] {
        try raw.read { db in
            Dictionary(uniqueKeysWithValues: try tables.map { ($0, try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \($0) WHERE school_id = ?", arguments: [school]) ?? 0) })
        }
    }

    /// The same number of rows per table, of the same shape, for another school id, with one
    /// prepared statement per table in one transaction.
    static func floor(_ raw: DatabaseQueue, counts: [String: Int]) throws {
        let now = "2026-11-24T08:00:00.000Z"
        try raw.write { db in
            func insert(_ table: String, _ sql: String, _ values: (Int) -> StatementArguments) throws {
                let statement = try db.makeStatement(sql: sql)
                for index in 0..<(counts[table] ?? 0) { try statement.execute(arguments: values(index)) }
            }
            try insert("auth_users", "INSERT INTO auth_users (school_id, id, email, display_name, role, password_hash, status, created_at) VALUES ('floor', ?, ?, ?, 'STUDENT', ?, 'ACTIVE', ?)") {
                [UUID().uuidString.lowercased(), "s\($0)@bench.org", "أحمد عثمان", PasswordHasher.decoy(cost: 10), now]
            }
            try insert("students_students", """
                INSERT INTO students_students (school_id, id, gr_number, given_name, surname, name_language, date_of_birth, gender, status,
                    enrolled_on, user_id, search_key, created_at, updated_at) VALUES ('floor', ?, ?, 'أحمد', 'عثمان', 'ar', '2012-01-01', 'MALE', 'ACTIVE', '2026-11-24', ?, 'احمد عثمان', ?, ?)
                """) { [UUID().uuidString.lowercased(), "GR-\($0)", UUID().uuidString.lowercased(), now, now] }
            try insert("students_enrolments", "INSERT INTO students_enrolments (school_id, student_id, school_year_id, class_id, enrolled_on) VALUES ('floor', ?, 'year', ?, '2026-11-24')") {
                [UUID().uuidString.lowercased(), "class-\($0 / 25)"]
            }
            try insert("students_classes", """
                INSERT INTO students_classes (school_id, id, school_year_id, year_level_id, code, name_ar, name_en, homeroom_teacher_id, capacity)
                VALUES ('floor', ?, 'year', 'level', ?, ?, ?, ?, 30)
                """) { [UUID().uuidString.lowercased(), "H\($0)", "H\($0)", "H\($0)", UUID().uuidString.lowercased()] }
            try insert("students_teaching", "INSERT INTO students_teaching (school_id, teacher_user_id, class_id, subject_id) VALUES ('floor', ?, ?, ?)") {
                [UUID().uuidString.lowercased(), "class-\($0 / 3)", "subject-\($0 % 3)"]
            }
            try insert("students_subjects", "INSERT INTO students_subjects (school_id, id, code, name_ar, name_en, credits) VALUES ('floor', ?, ?, ?, ?, 1)") {
                [UUID().uuidString.lowercased(), "S\($0)", "S\($0)", "S\($0)"]
            }
            try insert("students_year_levels", "INSERT INTO students_year_levels (school_id, id, code, name_ar, name_en, position) VALUES ('floor', ?, ?, ?, ?, ?)") {
                [UUID().uuidString.lowercased(), "G\($0)", "G\($0)", "G\($0)", $0]
            }
            try insert("students_terms", "INSERT INTO students_terms (school_id, id, school_year_id, name_ar, name_en, starts_on, ends_on) VALUES ('floor', ?, 'year', ?, ?, '2026-08-01', '2026-12-20')") {
                [UUID().uuidString.lowercased(), "T\($0)", "T\($0)"]
            }
            try insert("students_school_years", "INSERT INTO students_school_years (school_id, id, name, starts_on, ends_on) VALUES ('floor', ?, ?, '2026-08-01', '2027-06-30')") {
                [UUID().uuidString.lowercased(), "Y\($0)"]
            }
            try insert("oneroster_ids", "INSERT INTO oneroster_ids (school_id, kind, sourced_id, target, status, updated_at) VALUES ('floor', 'enrollment', ?, ?, 'active', ?)") {
                ["e-\($0)", "k\($0 / 100)|s\($0)", now]
            }
            try insert("oneroster_set_password_codes", "INSERT INTO oneroster_set_password_codes (school_id, user_id, code_hash, created_at, expires_at) VALUES ('floor', ?, ?, ?, ?)") {
                [UUID().uuidString.lowercased(), String(repeating: "ab", count: 32) + String($0), now, now]
            }
        }
    }
}

/// When each phase of the import began (from its progress labels), so the figure says where the time goes.
final class PhaseLog: @unchecked Sendable {
    private let lock = NSLock()
    private var phases: [(label: String, at: Double)] = []
    private let start = DispatchTime.now().uptimeNanoseconds

    func note(_ label: String) {
        let now = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        lock.withLock { if phases.last?.label != label { phases.append((label, now)) } }
    }

    /// Each phase's share of the time, in order.
    func summary(total: Double) -> String {
        lock.withLock {
            zip(phases, phases.dropFirst().map(\.at) + [total]).map { String(format: "%@ %.0f ms", $0.0.label, ($0.1 - $0.0.at) * 1000) }
                .joined(separator: ", ")
        }
    }
}
