import Core
import Foundation

// The bodies the roster's routes answer with; each route's OpenAPI schema is read from its type
// (`APISchema.of`). A field the contract always writes, null when there is none, is `Nullable`.

/// `{"data": [...], "total": n}`: an unpaged list with its count.
struct CountedList<Item: Codable & Sendable>: Codable, Sendable {
    let data: [Item]
    let total: Int

    init(_ data: [Item]) {
        self.data = data
        total = data.count
    }
}

/// `{id, name}`: a class's homeroom teacher, or its classroom.
struct NamedRef: Codable, Sendable {
    let id: String
    let name: String
}

// MARK: Guardian (§4)

/// A guardian's child. We keep no photo: `photo_url` is null.
struct ChildItem: Codable, Sendable {
    let id: String
    let givenName: String
    let familyName: String
    let gender: Nullable<Gender>
    let dateOfBirth: Nullable<APIInstant>
    let photoUrl: Nullable<String>
    let status: StudentStatus
    let relationship: GuardianRelation
    /// The class's and its year level's names; null when not enrolled this year.
    let section: Nullable<String>
    let grade: Nullable<String>

    init(_ child: Child, _ language: Language) {
        let student = child.student
        id = student.id
        givenName = student.givenName
        familyName = student.surname
        gender = Nullable(student.gender)
        dateOfBirth = Nullable(student.dateOfBirth.map { APIInstant.midnight(of: $0) })
        photoUrl = Nullable(nil)
        status = student.status
        relationship = child.relation
        section = Nullable(student.className?.text(in: language))
        grade = Nullable(student.yearLevelName?.text(in: language))
    }
}

// MARK: Teacher (§7)

/// One of a teacher's classes, one row per subject taught in it.
struct TaughtClassItem: Codable, Sendable {
    let sectionId: String
    let sectionName: String
    let gradeName: String
    let subjectName: Nullable<String>
    let studentCount: Int

    init(_ taught: TaughtClass, _ language: Language) {
        sectionId = taught.classID
        sectionName = taught.className.text(in: language)
        gradeName = taught.yearLevelName.text(in: language)
        subjectName = Nullable(taught.subjectName?.text(in: language))
        studentCount = taught.studentCount
    }
}

/// A student of a class. We keep no photo: `photo_url` is null.
struct ClassStudentItem: Codable, Sendable {
    let id: String
    let givenName: String
    let familyName: String
    let grNumber: String
    let gender: Nullable<Gender>
    let photoUrl: Nullable<String>

    init(_ student: Student) {
        id = student.id
        givenName = student.givenName
        familyName = student.surname
        grNumber = student.grNumber
        gender = Nullable(student.gender)
        photoUrl = Nullable(nil)
    }
}

// MARK: Admin (§12)

/// A class (the contract's section). We keep no classroom for a class: `classroom` is null.
struct ClassItem: Codable, Sendable {
    /// A class's year level; its `number` is the year level's position.
    struct Grade: Codable, Sendable {
        let id: String
        let name: String
        let number: Int
    }

    let id: String
    let name: String
    let letter: Nullable<String>
    let maxCapacity: Int
    let studentCount: Int
    let grade: Grade
    let homeroomTeacher: Nullable<NamedRef>
    let classroom: Nullable<NamedRef>

    init(_ summary: ClassSummary, _ language: Language) {
        id = summary.id
        name = summary.name.text(in: language)
        letter = Nullable(summary.letter)
        maxCapacity = summary.capacity
        studentCount = summary.studentCount
        grade = Grade(id: summary.yearLevelID, name: summary.yearLevelName.text(in: language), number: summary.yearLevelPosition)
        homeroomTeacher = Nullable(summary.homeroomTeacherID.map { NamedRef(id: $0, name: summary.homeroomTeacherName ?? "") })
        classroom = Nullable(nil)
    }
}

/// What one class's detail adds to its list item.
struct ClassStudents: Codable, Sendable {
    let students: [ClassStudentItem]
}

/// The caller's school and its totals.
struct SchoolItem: Codable, Sendable {
    let id: String
    let name: String
    let nameEn: String
    let domain: String
    let totalStudents: Int
    let totalTeachers: Int
    let totalSections: Int
}
