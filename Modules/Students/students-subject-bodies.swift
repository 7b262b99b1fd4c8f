import Core
import Foundation

// The subjects catalog's bodies (§11). We keep no departments, descriptions, pictures, colours
// or course content (chapters, lessons, videos, ratings): those fields are null, empty or zero.

/// A teacher of a subject, in one class.
struct SubjectTeacherItem: Codable, Sendable {
    let id: String
    let name: Nullable<String>
    let sectionId: String
    let section: String
    let grade: String
    let gradeNumber: Int

    init(_ row: SubjectTeaching, _ language: Language) {
        id = row.teacherID
        name = Nullable(row.teacherName)
        sectionId = row.classID
        section = row.className.text(in: language)
        grade = row.yearLevelName.text(in: language)
        gradeNumber = row.yearLevelPosition
    }
}

/// A subject of the catalog list.
struct SubjectItem: Codable, Sendable {
    let id: String
    let name: String
    let slug: String
    let department: Nullable<String>
    let description: Nullable<String>
    let thumbnailUrl: Nullable<String>
    let color: Nullable<String>
    /// The year levels it is taught in: their names, and their positions in the same order.
    let levels: [String]
    let grades: [Int]
    let totalChapters: Int
    let totalLessons: Int
    let averageRating: Double
    let ratingCount: Int
    let code: String
    let credits: Double
    let teachers: [SubjectTeacherItem]

    init(_ entry: SubjectCatalogEntry, _ language: Language) {
        let levels = entry.yearLevels
        id = entry.subject.id
        name = entry.subject.name.text(in: language)
        slug = StudentsSubjectRoutes.slug(entry.subject)
        department = Nullable(nil)
        description = Nullable(nil)
        thumbnailUrl = Nullable(nil)
        color = Nullable(nil)
        self.levels = levels.map { $0.name.text(in: language) }
        grades = levels.map(\.position)
        totalChapters = 0
        totalLessons = 0
        averageRating = 0
        ratingCount = 0
        code = entry.subject.code
        credits = entry.subject.credits
        teachers = entry.teaching.map { SubjectTeacherItem($0, language) }
    }
}

/// What one subject's detail adds to its list item.
struct SubjectDetailFields: Codable, Sendable {
    /// The content's question bank: none.
    struct QuestionStats: Codable, Sendable {
        let total: Int
        let cards: [APIValue]
    }

    /// The year levels it is taught in, `first – last`; null when it is taught in none.
    let gradeRange: Nullable<String>
    let curriculum: Nullable<String>
    let country: Nullable<String>
    let tags: [String]
    let bannerUrl: Nullable<String>
    let totalContent: Int
    /// How many classes it is taught in (one row per class and teacher).
    let usageCount: Int
    let status: String
    let chapters: [APIValue]
    let videos: [APIValue]
    let materials: [APIValue]
    let exams: [APIValue]
    let assignments: [APIValue]
    let questionStats: QuestionStats

    init(_ entry: SubjectCatalogEntry, _ language: Language) {
        let levels = entry.yearLevels
        let range: String? = levels.isEmpty ? nil : levels.count == 1 ? levels[0].name.text(in: language)
            : "\(levels[0].name.text(in: language)) – \(levels[levels.count - 1].name.text(in: language))"
        gradeRange = Nullable(range)
        curriculum = Nullable(nil)
        country = Nullable(nil)
        tags = []
        bannerUrl = Nullable(nil)
        totalContent = 0
        usageCount = entry.teaching.count
        status = "PUBLISHED"
        chapters = []
        videos = []
        materials = []
        exams = []
        assignments = []
        questionStats = QuestionStats(total: 0, cards: [])
    }
}

/// One of the caller's own subjects, with one of its teachers.
struct MySubjectItem: Codable, Sendable {
    let id: String
    let name: String
    let slug: String
    let department: Nullable<String>
    let thumbnailUrl: Nullable<String>
    let teacherName: Nullable<String>

    init(_ subject: Subject, teacherName: String?, _ language: Language) {
        id = subject.id
        name = subject.name.text(in: language)
        slug = StudentsSubjectRoutes.slug(subject)
        department = Nullable(nil)
        thumbnailUrl = Nullable(nil)
        self.teacherName = Nullable(teacherName)
    }
}
