import Auth
import Core
import Foundation

/// One class a subject is taught in this school year, with its year level and teacher.
public struct SubjectTeaching: Codable, Sendable, Equatable {
    public let classID: String
    public let classCode: String
    public let className: LocalizedText
    public let yearLevelName: LocalizedText
    public let yearLevelPosition: Int
    public let teacherID: String
    public let teacherName: String?
}

/// A subject of the school's catalog: the subject and where it is taught this school year.
public struct SubjectCatalogEntry: Codable, Sendable, Equatable {
    public let subject: Subject
    public let teaching: [SubjectTeaching]

    /// The year levels it is taught in, in the school's order, each once.
    public var yearLevels: [(name: LocalizedText, position: Int)] {
        var seen: Set<Int> = []
        return teaching.sorted { $0.yearLevelPosition < $1.yearLevelPosition }.compactMap { row -> (name: LocalizedText, position: Int)? in
            seen.insert(row.yearLevelPosition).inserted ? (row.yearLevelName, row.yearLevelPosition) : nil
        }
    }
}

/// The catalog's reads: every statement bound to the school and today's school year.
enum SubjectCatalog {
    static let teachingSelect = """
        SELECT t.subject_id, t.teacher_user_id, c.id AS class_id, c.code AS class_code, c.name_ar, c.name_en,
               y.name_ar AS level_ar, y.name_en AS level_en, y.position
        FROM students_teaching t
        JOIN students_classes c ON c.school_id = t.school_id AND c.id = t.class_id
        JOIN students_year_levels y ON y.school_id = c.school_id AND y.id = c.year_level_id
        WHERE t.school_id = :school_id AND c.school_year_id = \(Roster.currentYearSQL)
        """

    /// The classes each subject is taught in this year, by subject id; `condition` narrows the rows.
    static func teaching(_ context: ActionContext, condition: String = "1 = 1", _ arguments: SQLArguments = [:]) throws -> [String: [SubjectTeaching]] {
        let rows = try context.database.fetchAll("\(teachingSelect) AND \(condition) ORDER BY y.position, c.code",
                                                 arguments.merging(["today": .text(Roster.today(context))]) { $1 })
        var names: [String: String] = [:]
        for id in Set(rows.map { $0.string("teacher_user_id") }) {
            names[id] = try UserAccounts.find(id: id, in: context)?.displayName
        }
        var bySubject: [String: [SubjectTeaching]] = [:]
        for row in rows {
            let teacher = row.string("teacher_user_id")
            bySubject[row.string("subject_id"), default: []].append(SubjectTeaching(
                classID: row.string("class_id"), classCode: row.string("class_code"),
                className: LocalizedText(ar: row.string("name_ar"), en: row.string("name_en")),
                yearLevelName: LocalizedText(ar: row.string("level_ar"), en: row.string("level_en")),
                yearLevelPosition: row.int("position"), teacherID: teacher, teacherName: names[teacher]))
        }
        return bySubject
    }

    static func subjects(_ context: ActionContext) throws -> [Subject] {
        try ListSubjects().perform(.init(), in: context)
    }

    /// A subject by id or, failing that, by code; another school's reads as one that does not exist.
    static func subject(reference: String, _ context: ActionContext) throws -> Subject {
        for column in ["id", "code"] {
            if let row = try context.database.fetchOne("SELECT * FROM students_subjects WHERE school_id = :school_id AND \(column) = :reference",
                                                       ["reference": .text(reference)]) {
                return Subject(id: row.string("id"), code: row.string("code"), name: LocalizedText(ar: row.string("name_ar"), en: row.string("name_en")),
                               credits: row["credits"] ?? 1)
            }
        }
        throw StudentsError.unknownSubject(reference)
    }

    /// Whether the subject's code or either of its names contains the search, Arabic-aware.
    static func matches(_ subject: Subject, _ search: String?) -> Bool {
        guard let search, !search.trimmingCharacters(in: .whitespaces).isEmpty else { return true }
        let needle = ArabicSearch.fold(search)
        return [subject.code, subject.name.ar, subject.name.en].contains { ArabicSearch.fold($0).contains(needle) }
    }
}

/// The school's subjects with the year levels and classes they are taught in this year and
/// who teaches them: a catalog every member of the school may read.
public struct ListSubjectCatalog: Action {
    public struct Input: Codable, Sendable {
        public var search: String?
        public init(search: String? = nil) { self.search = search }
    }

    public static let id = "students.subject-catalog"
    public static let permission = StudentsPermissions.readRoster
    public static let isReadOnly = true

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        if let search = input.search { try TextInput.check(search, field: "search", maxLength: TextLimit.name) }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> [SubjectCatalogEntry] {
        let teaching = try SubjectCatalog.teaching(context)
        return try SubjectCatalog.subjects(context).filter { SubjectCatalog.matches($0, input.search) }.map {
            SubjectCatalogEntry(subject: $0, teaching: teaching[$0.id] ?? [])
        }
    }
}

/// One subject of the catalog, by id or code.
public struct ShowSubject: Action {
    public struct Input: Codable, Sendable {
        public var subject: String
        public init(subject: String) { self.subject = subject }
    }

    public static let id = "students.show-subject"
    public static let permission = StudentsPermissions.readRoster
    public static let isReadOnly = true

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        _ = try SubjectCatalog.subject(reference: input.subject, context)
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> SubjectCatalogEntry {
        let subject = try SubjectCatalog.subject(reference: input.subject, context)
        return SubjectCatalogEntry(subject: subject, teaching: try SubjectCatalog.teaching(context)[subject.id] ?? [])
    }
}

/// The signed-in person's own subjects this year: what a teacher teaches, what a student is
/// taught in their class, what a guardian's children are taught; each with who teaches it.
/// Decided by who the caller is, never by an id they send, so nobody else's appear.
public struct ListMySubjects: Action {
    public struct Input: Codable, Sendable { public init() {} }

    public static let id = "students.my-subjects"
    public static let permission = StudentsPermissions.readRoster
    public static let isReadOnly = true

    public init() {}

    static let mine = """
        (t.teacher_user_id = :me OR t.class_id IN (
            SELECT e.class_id FROM students_enrolments e
            JOIN students_students s ON s.school_id = e.school_id AND s.id = e.student_id
            WHERE e.school_id = :school_id AND s.archived_at IS NULL AND (s.user_id = :me OR s.id IN (
                SELECT sg.student_id FROM students_student_guardians sg
                JOIN students_guardians g ON g.school_id = sg.school_id AND g.id = sg.guardian_id
                WHERE sg.school_id = :school_id AND g.user_id = :me))))
        """

    public func perform(_ input: Input, in context: ActionContext) throws -> [SubjectCatalogEntry] {
        let teaching = try SubjectCatalog.teaching(context, condition: Self.mine, ["me": .text(context.principal.userID)])
        return try SubjectCatalog.subjects(context).compactMap { subject in
            teaching[subject.id].map { SubjectCatalogEntry(subject: subject, teaching: $0) }
        }
    }
}
