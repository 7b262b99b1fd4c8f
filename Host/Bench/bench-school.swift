import Attendance
import Auth
import Core
import Foundation
import HogwartsPostgreSQL
import GRDB
import Grades
import Messages
import Students
import Timetable

/// How big the benchmark school is.
struct BenchScale {
    let students: Int
    let classes: Int
    /// About 18 class-subjects each, as at 2,000 students (60 classes x 12 subjects / 40 teachers).
    let teachers: Int
    let statsDays: Int
    let assessmentsPerSubject: Int
    let messages: Int
    let processRuns: Int

    static func full(students: Int) -> BenchScale {
        let classes = max(2, Int((Double(students) / 33.3).rounded()))
        return BenchScale(students: students, classes: classes, teachers: max(40, classes * 2 / 3), statsDays: 90, assessmentsPerSubject: 6,
                          messages: 100_000, processRuns: 11)
    }

    /// A few seconds even in a debug build: CI runs it to prove the benchmark still works.
    static let quick = BenchScale(students: 120, classes: 4, teachers: 40, statsDays: 10, assessmentsPerSubject: 2, messages: 2_000, processRuns: 3)
}

/// A school built for measuring, deterministically, in a temporary database. Setup that is not
/// being measured is written straight with SQL; what is measured goes through the actions.
final class BenchSchool {
    static let subjects = ["MATH", "ARAB", "ENG", "ISL", "SCI", "PHY", "CHEM", "BIO", "HIST", "GEO", "ICT", "ART"]
    static let periods = ["P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8"]

    let scale: BenchScale
    let directory: URL
    let kernel: Kernel
    let school: School
    let admin: Principal
    /// Setup's access to the database, and the floors' connection: GRDB on SQLite, libpq on PostgreSQL.
    let store: BenchStore
    /// On PostgreSQL, the server's URL the bench's schema was made on (dropped at the end).
    let server: String?
    private(set) var classCodes: [String] = []

    /// The SQLite file, or the URL of the bench's own schema on the PostgreSQL server.
    let databasePath: String

    /// The floors' SQLite database; scenarios written only for SQLite (sync, profile, HTTP) use it.
    var raw: DatabaseQueue {
        get throws {
            guard case .sqlite(let queue) = store else { throw BenchError.sqliteOnly("this scenario") }
            return queue
        }
    }

    /// The PostgreSQL floors' connection, nil on SQLite.
    var postgres: BenchPostgres? {
        if case .postgres(let connection) = store { return connection }
        return nil
    }

    /// - Parameter database: a `postgres://` URL builds the school in a new, empty schema on that
    ///   server (dropped with everything in it when the bench ends); nil is a temporary SQLite file.
    init(scale: BenchScale, devices: Bool = false, database: String? = nil) throws {
        self.scale = scale
        directory = FileManager.default.temporaryDirectory.appending(path: "hogwarts-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        server = database
        databasePath = try database.map { try PostgresScratch.makeSchema(on: $0) } ?? directory.appending(path: "bench.sqlite").path
        kernel = try Kernel(databasePath: databasePath,
                            modules: [AuthModule(), StudentsModule(), TimetableModule(), AttendanceModule(), GradesModule(), MessagesModule()])
        try kernel.migrate()
        school = try kernel.createSchool(NewSchool(slug: "bench", name: LocalizedText(ar: "مدرسة القياس", en: "Bench School")))
        if devices { try kernel.activateSync(school.id) }
        admin = Principal(userID: "bench-admin", role: .admin, schoolID: school.id, displayName: "bench")
        if database != nil {
            // The floors' own connection to the bench's schema (its search_path is in the URL).
            store = .postgres(try BenchPostgres(url: databasePath))
        } else {
            // The floors use the kernel's connection settings: WAL with `synchronous = FULL` (every
            // commit waits for the disk); if the kernel's setting changes, change it here.
            var configuration = Configuration()
            configuration.journalMode = .wal
            let raw = try DatabaseQueue(path: databasePath, configuration: configuration)
            try raw.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA synchronous = FULL")
                // As the kernel's writer: a statement journal (the floor's inserts, checked against
                // foreign keys, make one) stays in memory. `floorRead` sets it back, as the kernel's readers have it.
                try db.execute(sql: "PRAGMA temp_store = MEMORY")
            }
            store = .sqlite(raw)
        }
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
        if let server { PostgresScratch.dropSchema(databasePath, on: server) }
    }

    @discardableResult
    func run<A: Action>(_ action: A.Type, _ input: A.Input, as principal: Principal? = nil) throws -> A.Output {
        try kernel.run(action, input, as: principal ?? admin, in: school.id)
    }

    /// Year, terms, year levels, classes, subjects, teachers and who teaches what.
    func buildRoster() throws {
        // The attendance scenarios mark today, which must fall inside a school year: the bench's
        // year runs on past June 2027 for as long as the bench is run.
        let today = CivilDate(Date(), in: TimeZone(identifier: school.timeZone) ?? .gmt)
        let yearEnd = max(CivilDate("2027-06-30") ?? today, today.adding(days: 30))
        try run(CreateSchoolYear.self, .init(name: "2026-2027", startsOn: "2026-08-01", endsOn: yearEnd.description))
        try run(CreateTerm.self, .init(schoolYear: "2026-2027", name: LocalizedText(ar: "الفصل الأول", en: "Term 1"), startsOn: "2026-08-01", endsOn: "2026-12-20"))
        for level in 0..<6 {
            try run(CreateYearLevel.self, .init(code: "G\(level + 7)", name: LocalizedText(ar: "الصف \(level + 7)", en: "Grade \(level + 7)"), position: level))
        }
        for subject in Self.subjects {
            try run(CreateSubject.self, .init(code: subject, name: LocalizedText(ar: subject, en: subject), credits: subject == "ART" ? 1 : 3))
        }
        let teachers = scale.teachers
        try store.write { db in
            for index in 0..<teachers {
                try db.execute("""
                    INSERT INTO auth_users (school_id, id, email, display_name, role, password_hash, status, created_at)
                    VALUES (?, ?, ?, ?, 'TEACHER', ?, 'ACTIVE', '2026-08-01T00:00:00.000Z')
                    """, [school.id, "teacher-\(index)", "t\(index)@bench.org", "Teacher \(index)", AuthDemo.passwordHash])
            }
        }
        for index in 0..<scale.classes {
            let code = "C\(String(format: "%02d", index))"
            try run(CreateClass.self, .init(code: code, name: LocalizedText(ar: code, en: code), yearLevel: "G\(index % 6 + 7)", capacity: 60))
            classCodes.append(code)
            for (subjectIndex, subject) in Self.subjects.enumerated() {
                try run(AssignTeacher.self, .init(teacherEmail: "t\((index * 5 + subjectIndex) % teachers)@bench.org", classCode: code, subjectCode: subject))
            }
        }
    }

    /// The import scenario's CSV: names drawn from a seeded generator.
    func studentsCSV() -> String {
        var random = DemoRandom(seed: 99)
        let given = ["أحمد", "محمد", "فاطمة", "آمنة", "عمر", "مريم", "يوسف", "سارة", "Emma", "Noah"]
        let surnames = ["عثمان", "الأمين", "إبراهيم", "الطيب", "محجوب", "Hall", "Green"]
        var lines = ["gr_number,given_name,surname,date_of_birth,gender,class"]
        for index in 0..<scale.students {
            lines.append("B-\(String(format: "%05d", index)),\(random.pick(given)),\(random.pick(surnames)),2012-0\(1 + index % 9)-1\(index % 9),"
                         + "\(index % 2 == 0 ? "MALE" : "FEMALE"),\(classCodes[index % classCodes.count])")
        }
        return lines.joined(separator: "\n")
    }

    /// Periods and one class's week, for `timetable now`.
    func buildTimetable() throws {
        for (index, period) in Self.periods.enumerated() {
            let start = 7 * 60 + 45 + index * 45
            try run(CreatePeriod.self, .init(code: period, name: LocalizedText(ar: period, en: period),
                                             startsAt: String(format: "%02d:%02d", start / 60, start % 60), endsAt: String(format: "%02d:%02d", (start + 45) / 60, (start + 45) % 60)))
        }
        for day in 0..<5 {
            for (index, period) in Self.periods.enumerated() {
                // Class 0's teacher of subject s is t<s> (see buildRoster).
                let subjectIndex = (day + index) % Self.subjects.count
                try run(CreateSlot.self, SlotPlacement(day: day, periodCode: period, week: -1, classCode: classCodes[0], subjectCode: Self.subjects[subjectIndex],
                                                       teacherEmail: "t\(subjectIndex)@bench.org", room: "R0"))
            }
        }
    }

    /// A signed-in session for `email` (created with `role`), as `hogwarts login` leaves it.
    func session(email: String, role: Role, configDirectory: URL) throws {
        try store.write { db in
            try db.execute("""
                INSERT INTO auth_users (school_id, id, email, display_name, role, password_hash, status, created_at)
                VALUES (?, ?, ?, ?, ?, ?, 'ACTIVE', '2026-08-01T00:00:00.000Z')
                """, [school.id, "user-\(email)", email, email, role.rawValue, AuthDemo.passwordHash])
        }
        if role == .student {
            let first = try run(ListStudents.self, .init(classCode: classCodes[0])).students[0].grNumber
            try run(LinkStudentAccount.self, .init(grNumber: first, email: email))
        }
        let signedIn = try kernel.run(SignIn.self, .init(email: email, password: AuthDemo.password), as: .anonymous, in: school.id)
        try FileManager.default.createDirectory(at: configDirectory, withIntermediateDirectories: true)
        let sessions = [URL(filePath: databasePath).standardizedFileURL.path: ["schoolID": school.id, "email": email, "token": signedIn.token ?? ""]]
        let file = configDirectory.appending(path: "sessions.json")
        try JSONEncoder().encode(sessions).write(to: file)
        // Private, as `hogwarts login` leaves it: the CLI warns about a session file others can read.
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
    }
}
