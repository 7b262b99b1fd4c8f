import Core

/// The school's subjects for offline apps: the catalog every member of the school may read
/// (`students.roster.read` is school-wide for every role), so each goes to the `school` key.
/// Where it is taught comes with it, every school year's, so the app picks this year's itself and
/// nothing goes stale when the year turns without a write.
extension StudentsSync {
    static let subject = SyncEntityType(
        "students.subject",
        sources: [SyncSource(table: "students_subjects"), SyncSource(table: "students_teaching", idColumn: "subject_id")],
        load: { ids, context in
            let arguments: SQLArguments = ["ids": .text(SyncScope.json(ids))]
            var teaching: [String: [APIValue]] = [:]
            try context.database.forEachRow("""
                SELECT t.subject_id, t.class_id, t.teacher_user_id, c.code, c.school_year_id
                FROM students_teaching t JOIN students_classes c ON c.school_id = t.school_id AND c.id = t.class_id
                WHERE t.school_id = :school_id AND t.subject_id IN (SELECT value FROM json_each(:ids))
                ORDER BY c.code
                """, arguments) { row in
                teaching[row.string("subject_id"), default: []].append([
                    "classId": .string(row.string("class_id")), "classCode": .string(row.string("code")),
                    "schoolYearId": .string(row.string("school_year_id")), "teacherId": .string(row.string("teacher_user_id")),
                ])
            }
            var result: [String: SyncEntity] = [:]
            try context.database.forEachRow("""
                SELECT id, code, name_ar, name_en, credits FROM students_subjects
                WHERE school_id = :school_id AND id IN (SELECT value FROM json_each(:ids))
                """, arguments) { row in
                let id = row.string("id")
                let credits: Double = row["credits"] ?? 1
                result[id] = SyncEntity(
                    data: ["id": .string(id), "code": .string(row.string("code")), "name": .string(row.string("name_ar")),
                           "nameEn": .string(row.string("name_en")), "credits": .double(credits), "teaching": .array(teaching[id] ?? [])],
                    scopes: [.school])
            }
            return result
        },
        snapshot: { _, after, limit, context in
            try context.database.fetchAll("""
                SELECT id FROM students_subjects WHERE school_id = :school_id AND id > :after ORDER BY id LIMIT :limit
                """, ["after": .text(after), "limit": .integer(Int64(limit))]).map { $0.string("id") }
        })
}
