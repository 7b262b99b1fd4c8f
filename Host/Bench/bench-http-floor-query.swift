import Core
import Foundation
import GRDB

/// The bare floor's read: the count and one page of the students a teacher's list shows (their
/// classes' students; the whole school for an admin), with the same conditions, joins and order
/// as Students' `ListStudents`, in two statements.
enum FloorQuery {
    struct Scope: Sendable {
        let role: String
        let viewer: String
        let school: String
    }

    static func today() -> String { CivilDate(Date(), in: .gmt).description }

    static func page(_ db: Database, scope: Scope, today: String, page: Int, perPage: Int) throws -> FloorPage {
        let teacher = scope.role != "ADMIN"
        var arguments: [String: (any DatabaseValueConvertible)?] = ["school": scope.school]
        if teacher { arguments["viewer"] = scope.viewer }
        let total = try Int.fetchOne(db.cachedStatement(sql: teacher ? countOwnClasses : countSchool), arguments: StatementArguments(arguments)) ?? 0
        arguments["today"] = today
        arguments["limit"] = perPage
        arguments["offset"] = (page - 1) * perPage
        let rows = try Row.fetchAll(db.cachedStatement(sql: teacher ? pageOwnClasses : pageSchool), arguments: StatementArguments(arguments))
        return FloorPage(data: rows.map(FloorStudent.init(row:)), total: total, page: page, perPage: perPage)
    }

    /// Students' `StudentVisibility` for a teacher: the classes they teach or are homeroom teacher of.
    static let ownClasses = """
        s.id IN (SELECT e.student_id FROM students_enrolments e WHERE e.school_id = :school AND e.class_id IN (
            SELECT t.class_id FROM students_teaching t WHERE t.school_id = :school AND t.teacher_user_id = :viewer
            UNION SELECT c.id FROM students_classes c WHERE c.school_id = :school AND c.homeroom_teacher_id = :viewer))
        """
    /// The route lists active students unless asked otherwise.
    static let listed = "s.school_id = :school AND s.archived_at IS NULL AND s.status = 'ACTIVE'"

    static let countOwnClasses = "SELECT COUNT(*) FROM students_students s WHERE \(listed) AND \(ownClasses)"
    static let countSchool = "SELECT COUNT(*) FROM students_students s WHERE \(listed)"
    static let pageOwnClasses = "\(select) WHERE \(listed) AND \(ownClasses) \(order)"
    static let pageSchool = "\(select) WHERE \(listed) \(order)"

    static let select = """
        SELECT s.id, s.given_name, s.surname, s.gr_number, s.gender, s.date_of_birth, s.status,
               c.id AS class_id, c.name_ar AS class_name, y.name_ar AS level_name
        FROM students_students s
        LEFT JOIN students_enrolments e ON e.school_id = s.school_id AND e.student_id = s.id AND e.school_year_id = (
            SELECT id FROM students_school_years WHERE school_id = :school
            ORDER BY CASE WHEN starts_on <= :today AND ends_on >= :today THEN 0 WHEN starts_on <= :today THEN 1 ELSE 2 END,
                     CASE WHEN starts_on <= :today THEN starts_on END DESC, starts_on
            LIMIT 1)
        LEFT JOIN students_classes c ON c.school_id = e.school_id AND c.id = e.class_id
        LEFT JOIN students_year_levels y ON y.school_id = c.school_id AND y.id = c.year_level_id
        """
    static let order = "ORDER BY s.surname, s.given_name, s.gr_number LIMIT :limit OFFSET :offset"
}

/// `{data, total, page, per_page}`, as the contract's list.
struct FloorPage: Encodable {
    let data: [FloorStudent]
    let total: Int
    let page: Int
    let perPage: Int

    enum CodingKeys: String, CodingKey {
        case data, total, page
        case perPage = "per_page"
    }
}

/// The contract's student list item, with `null` written for what is absent, as the route does.
struct FloorStudent: Encodable {
    struct Section: Encodable {
        let id: String
        let name: String
        let grade: String?
    }

    let id: String
    let givenName: String
    let familyName: String
    let grNumber: String
    let gender: String?
    let dateOfBirth: String?
    let status: String
    let photoURL: String?
    let phone: String?
    let section: Section?

    enum CodingKeys: String, CodingKey {
        case id, gender, status, phone, section
        case givenName = "given_name"
        case familyName = "family_name"
        case grNumber = "gr_number"
        case dateOfBirth = "date_of_birth"
        case photoURL = "photo_url"
    }

    init(row: Row) {
        id = row[0]
        givenName = row[1]
        familyName = row[2]
        grNumber = row[3]
        gender = row[4]
        dateOfBirth = row[5]
        status = row[6]
        photoURL = nil
        phone = nil
        let classID: String? = row[7]
        section = classID.map { Section(id: $0, name: (row[8] as String?) ?? "", grade: row[9]) }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(givenName, forKey: .givenName)
        try container.encode(familyName, forKey: .familyName)
        try container.encode(grNumber, forKey: .grNumber)
        try container.encode(gender, forKey: .gender)
        try container.encode(dateOfBirth, forKey: .dateOfBirth)
        try container.encode(status, forKey: .status)
        try container.encode(photoURL, forKey: .photoURL)
        try container.encode(phone, forKey: .phone)
        try container.encode(section, forKey: .section)
    }
}
