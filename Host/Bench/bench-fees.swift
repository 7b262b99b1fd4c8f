import Auth
import Core
import Fees
import Foundation
import GRDB
import Students

/// `hogwarts-bench --fees [--students 2000] [--quick] [--json]`: the Fees module's heavy writes
/// beside their floors on plain SQLite (GRDB, prepared statements, `synchronous = FULL` as the
/// kernel's):
/// - a year's invoices for every student through `fees.generate` (one transaction), beside the
///   same rows inserted in one transaction;
/// - one payment per student through `fees.pay`, each its own transaction as an accountant
///   records them, beside the same rows (entry, receipt number, allocations) in one transaction
///   per payment, and in one transaction for all (the issue's floor, which saves every fsync but one).
///
/// It lives in the bench, not in the module: `hogwarts-bench` is the project's one benchmark tool.
struct FeesBench {
    let students: Int

    func run() throws -> [Figure] {
        let directory = FileManager.default.temporaryDirectory.appending(path: "hogwarts-bench-fees-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appending(path: "bench.sqlite").path
        let kernel = try Kernel(databasePath: path, modules: [AuthModule(), StudentsModule(), FeesModule()])
        try kernel.migrate()
        let school = try kernel.createSchool(NewSchool(slug: "bench", name: LocalizedText(ar: "مدرسة القياس", en: "Bench School")))
        let admin = Principal(userID: "bench-admin", role: .admin, schoolID: school.id, displayName: "bench")
        func run<A: Action>(_ action: A.Type, _ input: A.Input) throws -> A.Output { try kernel.run(action, input, as: admin, in: school.id) }

        // Setup, not measured: a school year, classes of 40 and the students enrolled in them.
        _ = try run(CreateSchoolYear.self, .init(name: "2026-2027", startsOn: "2026-08-23", endsOn: "2027-06-30"))
        _ = try run(CreateYearLevel.self, .init(code: "G7", name: LocalizedText(ar: "السابع", en: "Grade 7"), position: 1))
        let classes = (students + 39) / 40
        for index in 0..<classes { _ = try run(CreateClass.self, .init(code: "C\(index)", name: LocalizedText(ar: "C\(index)", en: "C\(index)"), yearLevel: "G7", capacity: 40)) }
        var configuration = Configuration()
        configuration.journalMode = .wal
        let raw = try DatabaseQueue(path: path, configuration: configuration)
        try raw.writeWithoutTransaction { try $0.execute(sql: "PRAGMA synchronous = FULL") }
        try Self.enrol(students, school: school.id, raw)
        _ = try run(AddFeeStructure.self, .init(name: "Year fees", schoolYear: "2026-2027", items: [
            FeeItem(type: .tuition, label: "Tuition", amount: "450.00", schedule: .monthly, dueOn: "2026-09-01"),
            FeeItem(type: .books, label: "Books", amount: "300.00", schedule: .once, dueOn: "2026-09-15"),
        ]))

        var generated = 0
        let generate = try Clock.time { generated = try run(GenerateInvoices.self, .init(schoolYear: "2026-2027")).created }
        let generateFloor = try Clock.time { try Self.invoicesFloor(generated, raw) }

        let numbers = try raw.read { try String.fetchAll($0, sql: "SELECT gr_number FROM students_students WHERE school_id = ? ORDER BY gr_number", arguments: [school.id]) }
        let pay = try Clock.time {
            for number in numbers { _ = try run(RecordFeePayment.self, .init(student: number, amount: "600.00", method: .bankTransfer, reference: "bench")) }
        }
        let allocations = try raw.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM fees_allocations WHERE school_id = ?", arguments: [school.id]) ?? 0 }
        let each = max(1, allocations / max(1, numbers.count))
        let payFloor = try Clock.time { try Self.paymentsFloor(numbers.count, allocationsEach: each, raw) }
        // The issue's floor: every payment in one transaction, so one fsync instead of one per payment.
        let payBatchFloor = try Clock.time { try Self.paymentsFloor(numbers.count, allocationsEach: each, raw, oneTransaction: true) }
        FileHandle.standardError.write(Data("fees: \(numbers.count) students, \(generated) invoices, \(numbers.count) payments, \(allocations) allocations\n".utf8))
        return [
            Figure(scenario: "Fees: a year's invoices for \(numbers.count) students (fees generate)", rows: generated, seconds: generate,
                   floorSeconds: generateFloor, floorKind: "same rows, one transaction", target: "3x"),
            Figure(scenario: "Fees: \(numbers.count) payments, one transaction each (fees pay)", rows: numbers.count + allocations, seconds: pay,
                   floorSeconds: payFloor, floorKind: "same rows, one transaction per payment", target: "3x"),
            Figure(scenario: "Fees: the same payments beside one transaction for all", rows: numbers.count + allocations, seconds: pay,
                   floorSeconds: payBatchFloor, floorKind: "same rows, one transaction", target: "3x (a payment is durable before its receipt: docs/performance.md)"),
        ]
    }

    /// The students, written straight (setup): `count` students, enrolled 40 to a class.
    static func enrol(_ count: Int, school: String, _ raw: DatabaseQueue) throws {
        try raw.write { db in
            let year = try String.fetchOne(db, sql: "SELECT id FROM students_school_years WHERE school_id = ?", arguments: [school]) ?? ""
            let classes = try String.fetchAll(db, sql: "SELECT id FROM students_classes WHERE school_id = ? ORDER BY CAST(SUBSTR(code, 2) AS INTEGER)", arguments: [school])
            let student = try db.makeStatement(sql: """
                INSERT INTO students_students (school_id, id, gr_number, given_name, surname, name_language, date_of_birth, gender, status,
                    enrolled_on, search_key, created_at, updated_at) VALUES (?, ?, ?, 'أحمد', 'عثمان', 'ar', '2013-01-01', 'MALE', 'ACTIVE', '2026-08-23', 'احمد عثمان', ?, ?)
                """)
            let enrolment = try db.makeStatement(sql: "INSERT INTO students_enrolments (school_id, student_id, school_year_id, class_id, enrolled_on) VALUES (?, ?, ?, ?, '2026-08-23')")
            let now = "2026-08-23T08:00:00.000Z"
            for index in 0..<count {
                let id = UUID().uuidString.lowercased()
                try student.execute(arguments: [school, id, String(format: "GR-%05d", index + 1), now, now])
                try enrolment.execute(arguments: [school, id, year, classes[index / 40]])
            }
        }
    }

    /// `count` invoices of the same shape for another school, one prepared statement, one transaction.
    static func invoicesFloor(_ count: Int, _ raw: DatabaseQueue) throws {
        try raw.write { db in
            let statement = try db.makeStatement(sql: """
                INSERT INTO fees_invoices (school_id, id, student_id, item_id, school_year_id, item_type, label, due_on, gross_minor, discount_minor,
                    amount_minor, cancelled_minor, currency, created_at) VALUES ('floor', ?, ?, 'item', 'year', 'TUITION', 'Tuition', ?, 45000, 0, 45000, 0, 'USD', ?)
                """)
            for index in 0..<count {
                try statement.execute(arguments: [UUID().uuidString.lowercased(), "student-\(index / 11)", "2026-09-\(String(format: "%02d", index % 11 + 1))",
                                                  "2026-08-23T08:00:00.000Z"])
            }
        }
    }

    /// Each payment as the platform writes it: the next receipt number, the entry, and
    /// `allocationsEach` allocations to the student's invoices; in a transaction of its own, as
    /// the platform's, or all in one.
    static func paymentsFloor(_ count: Int, allocationsEach: Int, _ raw: DatabaseQueue, oneTransaction: Bool = false) throws {
        let school = oneTransaction ? "floor-batch" : "floor"
        try raw.write { try $0.execute(sql: "INSERT INTO fees_receipt_counters (school_id, receipt_year, last_number) VALUES (?, 2026, 0)", arguments: [school]) }
        func pay(_ index: Int, _ db: Database) throws {
            try db.execute(sql: "UPDATE fees_receipt_counters SET last_number = last_number + 1 WHERE school_id = ? AND receipt_year = 2026", arguments: [school])
            let number = try Int.fetchOne(db, sql: "SELECT last_number FROM fees_receipt_counters WHERE school_id = ? AND receipt_year = 2026", arguments: [school]) ?? 0
            let entry = UUID().uuidString.lowercased()
            try db.execute(sql: """
                INSERT INTO fees_entries (school_id, id, kind, student_id, amount_minor, method, reference, receipt_year, receipt_seq, on_day, recorded_by, recorded_at)
                VALUES (?, ?, 'PAYMENT', ?, 60000, 'BANK_TRANSFER', 'bench', 2026, ?, '2026-11-22', 'bench', '2026-11-22T08:00:00.000Z')
                """, arguments: [school, entry, "student-\(index)", number])
            for _ in 0..<allocationsEach {
                try db.execute(sql: "INSERT INTO fees_allocations (school_id, id, entry_id, invoice_id, amount_minor) VALUES (?, ?, ?, 'invoice', 30000)",
                               arguments: [school, UUID().uuidString.lowercased(), entry])
            }
        }
        if oneTransaction {
            try raw.write { db in for index in 0..<count { try pay(index, db) } }
        } else {
            for index in 0..<count { try raw.write { try pay(index, $0) } }
        }
    }
}
