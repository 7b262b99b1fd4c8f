import Core
import Foundation
import GRDB
import Grades
import Messages
import Students

/// Each scenario measured twice: through the platform, and as the floor (the same work straight
/// against SQLite with prepared statements, or one SQL query for reads).
extension BenchSchool {
    func importScenario() throws -> Figure {
        let csv = studentsCSV()
        let ours = try Clock.time { try run(ImportStudents.self, .init(csv: csv, dryRun: false)) }
        let oursPeak = Clock.lastPeakMegabytes
        let floor = try Clock.time { try importFloor(csv) }
        return Figure(scenario: "import \(scale.students) students (CSV)", rows: scale.students, seconds: ours, floorSeconds: floor, target: "3x",
                      oursPeakMegabytes: oursPeak, floorPeakMegabytes: Clock.lastPeakMegabytes)
    }

    /// The import's floor: each student and their enrolment in a class, with prepared statements, in one transaction.
    func importFloor(_ csv: String) throws {
        if let postgres { return try importFloor(csv, postgres) }
        try raw.write { db in
            let insert = try db.makeStatement(sql: """
                INSERT INTO students_students (school_id, id, gr_number, given_name, surname, name_language, date_of_birth, gender, status,
                    enrolled_on, search_key, created_at, updated_at) VALUES ('floor', ?, ?, ?, ?, 'ar', '2012-01-01', 'MALE', 'ACTIVE', '2026-08-01', ?, '', '')
                """)
            let enrol = try db.makeStatement(sql: """
                INSERT INTO students_enrolments (school_id, student_id, school_year_id, class_id, enrolled_on) VALUES ('floor', ?, 'year', ?, '2026-08-01')
                """)
            for line in csv.split(separator: "\n").dropFirst() {
                let cells = line.split(separator: ",").map(String.init)
                let id = Self.floorStudentID()
                try insert.execute(arguments: [id, cells[0], cells[1], cells[2], "\(cells[1]) \(cells[2])"])
                try enrol.execute(arguments: [id, cells[5]])
            }
        }
    }

    /// A floor student's id, of the kind `students.import` gives (time-ordered, from
    /// `newOrderedID`): the ids' order decides where each insert lands in the indexes.
    static func floorStudentID() -> String { TimeOrderedID.next() }

    /// The same rows through libpq, prepared once, in one transaction.
    private func importFloor(_ csv: String, _ db: BenchPostgres) throws {
        let insert = """
            INSERT INTO students_students (school_id, id, gr_number, given_name, surname, name_language, date_of_birth, gender, status,
                enrolled_on, search_key, created_at, updated_at) VALUES ('floor', ?, ?, ?, ?, 'ar', '2012-01-01', 'MALE', 'ACTIVE', '2026-08-01', ?, '', '')
            """
        let enrol = "INSERT INTO students_enrolments (school_id, student_id, school_year_id, class_id, enrolled_on) VALUES ('floor', ?, 'year', ?, '2026-08-01')"
        try db.transaction {
            for line in csv.split(separator: "\n").dropFirst() {
                let cells = line.split(separator: ",").map(String.init)
                let id = Self.floorStudentID()
                try db.execute(insert, [id, cells[0], cells[1], cells[2], "\(cells[1]) \(cells[2])"])
                try db.execute(enrol, [id, cells[5]])
            }
        }
    }

    /// Every student x 12 subjects x N assessments of results (setup, not measured).
    func seedResults() throws -> Int {
        var random = DemoRandom(seed: 11)
        let term = try store.rows("SELECT id FROM students_terms WHERE school_id = ?", [school.id]).first?[0] ?? ""
        var count = 0
        let classes = try classMembers()
        // Ids by code, read once: a look-up by code per assessment would scan every class.
        func ids(_ table: String) throws -> [String: String] {
            Dictionary(try store.rows("SELECT code, id FROM \(table) WHERE school_id = ?", [school.id]).map { ($0[0], $0[1]) }) { $1 }
        }
        let classIDs = try ids("students_classes")
        let subjectIDs = try ids("students_subjects")
        try store.write { db in
            let assessment = """
                INSERT INTO grades_assessments (school_id, id, code, class_id, subject_id, term_id, kind, title, date, max_marks, passing_marks, category, created_by, created_at)
                VALUES (?, ?, ?, ?, ?, ?, 'TEST', 'Test', '2026-10-01', 100, 50, ?, 'bench', '')
                """
            let result = """
                INSERT INTO grades_results (school_id, assessment_id, student_id, state, score, entered_by, entered_at) VALUES (?, ?, ?, 'SCORED', ?, 'bench', '')
                """
            // A class's assessments (ids in insertion order), then each student's results: the
            // student index is written one student at a time and the primary key near its end,
            // not a random page per result (7 million results at 100,000 students).
            var sequence = 0
            for code in classCodes {
                var assessments: [String] = []
                for subject in Self.subjects {
                    for number in 0..<scale.assessmentsPerSubject {
                        sequence += 1
                        let id = String(format: "assessment-%09d", sequence)
                        try db.execute(assessment, [school.id, id, "\(code)-\(subject)-\(number)", classIDs[code], subjectIDs[subject], term,
                                                    number < 2 ? "exams" : "coursework"])
                        assessments.append(id)
                    }
                }
                for member in classes[code] ?? [] {
                    for id in assessments {
                        try db.execute(result, [school.id, id, member, Double(40 + random.next() % 61)])
                        count += 1
                    }
                }
            }
        }
        try store.checkpoint()
        return count
    }

    func reportCards(results: Int) throws -> Figure {
        let ours = try Clock.time { _ = try run(SchoolReportCards.self, .init(term: "Term 1")) }
        let oursPeak = Clock.lastPeakMegabytes
        let floor = try Clock.time {
            try floorRead("""
                SELECT r.student_id, a.subject_id, SUM(CASE WHEN r.state = 'SCORED' THEN r.score ELSE 0 END), SUM(a.max_marks)
                FROM grades_results r JOIN grades_assessments a ON a.school_id = r.school_id AND a.id = r.assessment_id
                WHERE r.school_id = ? GROUP BY r.student_id, a.subject_id
                """, [school.id])
        }
        return Figure(scenario: "report cards: GPA and rank, whole school", rows: results, seconds: ours, floorSeconds: floor, target: "2x",
                      oursPeakMegabytes: oursPeak, floorPeakMegabytes: Clock.lastPeakMegabytes)
    }

    /// `messages` messages in group conversations; the measured user is in one conversation in ten.
    func seedMessages() throws -> Principal {
        let reader = Principal(userID: "teacher-0", role: .teacher, schoolID: school.id, displayName: "Teacher 0")
        let words = ["امتحان", "الرياضيات", "رحلة", "الأحد", "واجب", "اجتماع", "أولياء", "الأمور", "نتائج", "الفصل"]
        var random = DemoRandom(seed: 21)
        let conversations = max(10, scale.messages / 200)
        try store.write { db in
            let message = """
                INSERT INTO messages_messages (school_id, id, conversation_id, sender_id, body, search_key, sent_at, seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """
            for index in 0..<conversations {
                let id = "conversation-\(index)"
                try db.execute("INSERT INTO messages_conversations (school_id, id, kind, title, created_by, created_at) VALUES (?, ?, 'GROUP', ?, 'teacher-1', '')",
                               [school.id, id, "Group \(index)"])
                for member in ["teacher-1", "teacher-2"] + (index % 10 == 0 ? ["teacher-0"] : []) {
                    try db.execute("INSERT INTO messages_participants (school_id, conversation_id, user_id, role, joined_at) VALUES (?, ?, ?, 'MEMBER', '')",
                                   [school.id, id, member])
                }
                for seq in 1...(scale.messages / conversations) {
                    let body = (0..<6).map { _ in random.pick(words) }.joined(separator: " ")
                    try db.execute(message, [school.id, random.id(), id, seq % 2 == 0 ? "teacher-1" : "teacher-2", body, ArabicSearch.fold(body),
                                             String(format: "2026-11-%02dT08:%02d:00.000Z", 1 + seq % 20, seq % 60), seq])
                }
            }
        }
        return reader
    }

    func unreadCounts(_ reader: Principal) throws -> Figure {
        var conversations = 0
        let ours = try Clock.time { conversations = try run(ListConversations.self, .init(), as: reader).count }
        let oursPeak = Clock.lastPeakMegabytes
        let floor = try Clock.time {
            try floorRead("""
                SELECT p.conversation_id, COUNT(m.id) FROM messages_participants p
                LEFT JOIN messages_messages m ON m.school_id = p.school_id AND m.conversation_id = p.conversation_id AND m.seq > p.last_read_seq AND m.sender_id != p.user_id
                WHERE p.school_id = ? AND p.user_id = ? GROUP BY p.conversation_id
                """, [school.id, reader.userID])
        }
        return Figure(scenario: "messages: unread counts among \(scale.messages)", rows: conversations, seconds: ours, floorSeconds: floor, target: "2x",
                      oursPeakMegabytes: oursPeak, floorPeakMegabytes: Clock.lastPeakMegabytes)
    }

    func arabicSearch(_ reader: Principal) throws -> Figure {
        var found = 0
        let ours = try Clock.time { found = try run(SearchMessages.self, .init(query: "إمتحان الرياضيات"), as: reader).count }
        let oursPeak = Clock.lastPeakMegabytes
        let floor = try Clock.time {
            try floorRead("""
                SELECT m.id, m.body FROM messages_messages m JOIN messages_participants p ON p.school_id = m.school_id AND p.conversation_id = m.conversation_id AND p.user_id = ?
                WHERE m.school_id = ? AND m.deleted_at IS NULL AND m.search_key LIKE ? ORDER BY m.sent_at DESC LIMIT 50
                """, [reader.userID, school.id, "%امتحان الرياضيات%"])
        }
        return Figure(scenario: "messages: Arabic search among \(scale.messages)", rows: found, seconds: ours, floorSeconds: floor, target: "2x",
                      oursPeakMegabytes: oursPeak, floorPeakMegabytes: Clock.lastPeakMegabytes)
    }

    /// A read floor: one query, every row stepped through and each value read, in one read
    /// transaction. On SQLite through a cursor (GRDB), as the platform streams its large reads,
    /// so neither side holds every row at once and the peak memory of the two can be compared;
    /// on PostgreSQL libpq returns the whole result (in a REPEATABLE READ snapshot, as the engine reads).
    func floorRead(_ sql: String, _ values: [String]) throws {
        if let postgres {
            _ = try postgres.transaction(readOnly: true) { try postgres.rows(sql, values) }
        } else {
            // The kernel reads on connections without `temp_store = MEMORY` (only its writer has it): a large sort spills to a file.
            try raw.writeWithoutTransaction { try $0.execute(sql: "PRAGMA temp_store = DEFAULT") }
            defer { try? raw.writeWithoutTransaction { try $0.execute(sql: "PRAGMA temp_store = MEMORY") } }
            _ = try raw.read { db in
                let rows = try Row.fetchCursor(db, sql: sql, arguments: StatementArguments(values))
                var cells = 0
                while let row = try rows.next() {
                    for index in 0..<row.count where !(row[index] as DatabaseValue).isNull { cells += 1 }
                }
                return cells
            }
        }
    }
}
