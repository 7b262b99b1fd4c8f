import Core
import Foundation

/// What Grades shares with offline apps, as `grades.read` allows: an assessment to everyone in
/// its class (`class` for those who teach it, `class-members` for its students and guardians);
/// a result to those who teach the class and to `student:<id>` (the student, their guardians,
/// their teachers), never to classmates. Results are visible once entered, as `grades.results-page`
/// shows them; report cards, which wait for publication, are not shared. A term's publication
/// goes to the whole school so a teacher's app knows which marks are locked.
///
/// Server wins: an offline `grades.enter-results@1` into a term whose report cards are
/// published is rejected as a conflict with the server's marks for those students.
enum GradesSync {
    static let entities = [assessment, result, publication]

    static let mutations = [SyncMutation("grades.enter-results@1", EnterResults.self, check: { input, context in
        guard input.byStudentID == true else { throw GradesError.offlineNeedsStudentID }
        let assessment = try GradesData.assessment(input.assessment, context)
        guard let term = try context.database.fetchOne("""
            SELECT t.id, t.name_en FROM grades_assessments a JOIN students_v1_terms t ON t.school_id = a.school_id AND t.id = a.term_id
            WHERE a.school_id = :school_id AND a.id = :id
            """, ["id": .text(assessment.id)]) else { return }
        if try GradesData.isPublished(termID: term.string("id"), context) { throw GradesError.resultsLocked(term.string("name_en")) }
    }, current: { input, error, context in
        // The server's marks for the students the entry named, on that assessment: only for the lock.
        guard case GradesError.resultsLocked = error else { return nil }
        guard let id: String = try context.database.fetchValue(
            "SELECT id FROM grades_assessments WHERE school_id = :school_id AND (id = :reference OR code = :reference)",
            ["reference": .text(input.assessment)]) else { return nil }
        let rows = try resultRows("r.assessment_id = :a AND r.student_id IN (SELECT value FROM json_each(:students))",
                                  ["a": .text(id), "students": .text(json(input.lines.map(\.student)))], context)
        return .object(["assessmentId": .string(id), "results": .array(rows.map { .object($0.data) })])
    })]

    static let assessment = SyncEntityType("grades.assessment", sources: [SyncSource(table: "grades_assessments")], load: { ids, context in
        var entities: [String: SyncEntity] = [:]
        for row in try context.database.fetchAll("""
            SELECT a.id, a.code, a.class_id, a.subject_id, sub.code AS subject_code, a.term_id, a.kind, a.title, a.date, a.max_marks,
                   a.passing_marks, a.category
            FROM grades_assessments a LEFT JOIN students_v1_subjects sub ON sub.school_id = a.school_id AND sub.id = a.subject_id
            WHERE a.school_id = :school_id AND a.id IN (SELECT value FROM json_each(:ids))
            """, ["ids": .text(json(ids))]) {
            let classID = row.string("class_id")
            entities[row.string("id")] = SyncEntity(data: [
                "id": .string(row.string("id")), "code": .string(row.string("code")), "classId": .string(classID),
                "subjectId": .string(row.string("subject_id")), "subjectCode": .optional(row["subject_code"]), "termId": .string(row.string("term_id")),
                "kind": .string(row.string("kind")), "title": .string(row.string("title")), "date": .string(row.string("date")),
                "maxMarks": .double(row["max_marks"] ?? 0), "passingMarks": .double(row["passing_marks"] ?? 0), "category": .string(row.string("category")),
            ], scopes: [.class(classID), .classMembers(classID)])
        }
        return entities
    }, snapshot: { scope, after, limit, context in
        try context.database.fetchAll("""
            SELECT id FROM grades_assessments WHERE school_id = :school_id AND id > :after
              AND (class_id IN (SELECT value FROM json_each(:classes)) OR class_id IN (SELECT value FROM json_each(:members)))
            ORDER BY id LIMIT :limit
            """, ["after": .text(after), "limit": .integer(Int64(limit)), "classes": .text(scope.jsonIDs(of: "class")),
                  "members": .text(scope.jsonIDs(of: "class-members"))]).map { $0.string("id") }
    })

    static let result = SyncEntityType("grades.result", sources: [SyncSource(table: "grades_results", idColumn: "sync_id")], load: { ids, context in
        var entities: [String: SyncEntity] = [:]
        for row in try resultRows("r.sync_id IN (SELECT value FROM json_each(:ids))", ["ids": .text(json(ids))], context) {
            entities[row.id] = SyncEntity(data: row.data, scopes: [.class(row.classID), .student(row.studentID)])
        }
        return entities
    }, snapshot: { scope, after, limit, context in
        try context.database.fetchAll("""
            SELECT r.sync_id FROM grades_results r JOIN grades_assessments a ON a.school_id = r.school_id AND a.id = r.assessment_id
            WHERE r.school_id = :school_id AND r.sync_id > :after
              AND (r.student_id IN (SELECT value FROM json_each(:students)) OR a.class_id IN (SELECT value FROM json_each(:classes)))
            ORDER BY r.sync_id LIMIT :limit
            """, ["after": .text(after), "limit": .integer(Int64(limit)), "students": .text(scope.jsonIDs(of: "student")),
                  "classes": .text(scope.jsonIDs(of: "class"))]).map { $0.string("sync_id") }
    })

    static let publication = SyncEntityType("grades.publication", sources: [SyncSource(table: "grades_publications", idColumn: "term_id")],
                                            load: { ids, context in
        var entities: [String: SyncEntity] = [:]
        for row in try context.database.fetchAll("""
            SELECT term_id, published_at FROM grades_publications WHERE school_id = :school_id AND term_id IN (SELECT value FROM json_each(:ids))
            """, ["ids": .text(json(ids))]) {
            entities[row.string("term_id")] = SyncEntity(data: ["id": .string(row.string("term_id")), "termId": .string(row.string("term_id")),
                                                                "publishedAt": .string(row.string("published_at"))], scopes: [.school])
        }
        return entities
    }, snapshot: { scope, after, limit, context in
        guard scope.contains(.school) else { return [] }
        return try context.database.fetchAll("""
            SELECT term_id FROM grades_publications WHERE school_id = :school_id AND term_id > :after ORDER BY term_id LIMIT :limit
            """, ["after": .text(after), "limit": .integer(Int64(limit))]).map { $0.string("term_id") }
    })

    /// Results as the wire carries them, with the class their assessment belongs to.
    private static func resultRows(_ condition: String, _ arguments: SQLArguments, _ context: SyncContext) throws
        -> [(id: String, classID: String, studentID: String, data: [String: APIValue])] {
        try context.database.fetchAll("""
            SELECT r.sync_id, r.assessment_id, r.student_id, r.state, r.score, r.feedback, r.entered_at, a.class_id
            FROM grades_results r JOIN grades_assessments a ON a.school_id = r.school_id AND a.id = r.assessment_id
            WHERE r.school_id = :school_id AND \(condition)
            """, arguments).map { row in
            let score: Double? = row["score"]
            let feedback: String? = row["feedback"]
            return (row.string("sync_id"), row.string("class_id"), row.string("student_id"), [
                "id": .string(row.string("sync_id")), "assessmentId": .string(row.string("assessment_id")), "studentId": .string(row.string("student_id")),
                "state": .string(row.string("state")), "score": score.map(APIValue.double) ?? .null,
                "feedback": feedback?.isEmpty == false ? .optional(feedback) : .null, "enteredAt": .string(row.string("entered_at")),
            ])
        }
    }

    private static func json(_ ids: [String]) -> String {
        String(decoding: (try? JSONEncoder().encode(ids)) ?? Data("[]".utf8), as: UTF8.self)
    }
}
