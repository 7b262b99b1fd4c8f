import Core
import Foundation

/// What Timetable shares with offline apps, as `timetable.read` allows: the bell times to
/// everyone in the school; a class's lessons to its students and guardians (`class-members`),
/// to the people who teach it (`class`), to the slot's own teacher, and to staff, who view
/// every timetable.
enum TimetableSync {
    static let entities = [period, slot]

    static let period = SyncEntityType("timetable.period", sources: [SyncSource(table: "timetable_periods")], load: { ids, context in
        var entities: [String: SyncEntity] = [:]
        for row in try context.database.fetchAll("""
            SELECT id, code, name_ar, name_en, starts_at, ends_at, is_break FROM timetable_periods
            WHERE school_id = :school_id AND id IN (SELECT value FROM json_each(:ids))
            """, ["ids": .text(json(ids))]) {
            entities[row.string("id")] = SyncEntity(data: [
                "id": .string(row.string("id")), "code": .string(row.string("code")), "name": .string(row.string("name_en")),
                "nameAr": .string(row.string("name_ar")), "startsAt": .string(row.string("starts_at")), "endsAt": .string(row.string("ends_at")),
                "isBreak": .bool(row["is_break"] ?? false),
            ], scopes: [.school])
        }
        return entities
    }, snapshot: { scope, after, limit, context in
        guard scope.contains(.school) else { return [] }
        return try context.database.fetchAll("SELECT id FROM timetable_periods WHERE school_id = :school_id AND id > :after ORDER BY id LIMIT :limit",
                                             ["after": .text(after), "limit": .integer(Int64(limit))]).map { $0.string("id") }
    })

    static let slot = SyncEntityType("timetable.slot", sources: [SyncSource(table: "timetable_slots")], load: { ids, context in
        var entities: [String: SyncEntity] = [:]
        for row in try context.database.fetchAll("""
            SELECT s.id, s.day, s.period_id, s.week, s.class_id, s.subject_id, s.teacher_user_id, s.room,
                   sub.code AS subject_code, sub.name_ar AS subject_ar, sub.name_en AS subject_en, u.display_name AS teacher_name
            FROM timetable_slots s
            LEFT JOIN students_v1_subjects sub ON sub.school_id = s.school_id AND sub.id = s.subject_id
            LEFT JOIN auth_v1_people u ON u.school_id = s.school_id AND u.id = s.teacher_user_id
            WHERE s.school_id = :school_id AND s.id IN (SELECT value FROM json_each(:ids))
            """, ["ids": .text(json(ids))]) {
            let classID = row.string("class_id")
            entities[row.string("id")] = SyncEntity(data: [
                "id": .string(row.string("id")), "day": .int(row.int("day")), "periodId": .string(row.string("period_id")),
                // -1: every week; else the cycle week (0 = A).
                "week": .int(row.int("week")), "classId": .string(classID), "subjectId": .string(row.string("subject_id")),
                "subjectCode": .optional(row["subject_code"]), "subjectName": .optional(row["subject_en"]), "subjectNameAr": .optional(row["subject_ar"]),
                "teacherId": .string(row.string("teacher_user_id")), "teacherName": .optional(row["teacher_name"]), "room": .string(row.string("room")),
            ], scopes: [.staff, .class(classID), .classMembers(classID), .user(row.string("teacher_user_id"))])
        }
        return entities
    }, snapshot: { scope, after, limit, context in
        let everything = scope.contains(.staff) ? 1 : 0
        return try context.database.fetchAll("""
            SELECT id FROM timetable_slots WHERE school_id = :school_id AND id > :after
              AND (:all = 1 OR class_id IN (SELECT value FROM json_each(:classes)) OR class_id IN (SELECT value FROM json_each(:members))
                   OR teacher_user_id IN (SELECT value FROM json_each(:users)))
            ORDER BY id LIMIT :limit
            """, ["after": .text(after), "limit": .integer(Int64(limit)), "all": .integer(Int64(everything)),
                  "classes": .text(scope.jsonIDs(of: "class")), "members": .text(scope.jsonIDs(of: "class-members")),
                  "users": .text(scope.jsonIDs(of: "user"))]).map { $0.string("id") }
    })

    private static func json(_ ids: [String]) -> String {
        String(decoding: (try? JSONEncoder().encode(ids)) ?? Data("[]".utf8), as: UTF8.self)
    }
}
