import Core
import Foundation

/// The student list's body, written by hand with Core's `JSONBuilder`. It is the API's busiest
/// route (the benchmark's student page); Foundation's JSONEncoder took about ten times as long
/// for a page, most of it converting every key of every row to snake_case. The JSON is the
/// same as `APIPage<StudentItem>` through `APIResponse.json` (a test compares the two).
enum StudentListBody {
    /// `{data, total, page, per_page}` of `StudentItem`s.
    static func page(_ students: [Student], total: Int, paging: APIPaging, language: Language) -> Data {
        var json = JSONBuilder(capacity: 64 + students.count * 420)
        json.raw(#"{"data":["#)
        for (index, student) in students.enumerated() {
            if index > 0 { json.raw(",") }
            item(student, language, to: &json)
        }
        json.raw(#"],"total":"#)
        json.integer(total)
        json.raw(#","page":"#)
        json.integer(paging.page)
        json.raw(#","per_page":"#)
        json.integer(paging.perPage)
        json.raw("}")
        return json.data
    }

    /// One `StudentItem`, keys in the same order.
    private static func item(_ student: Student, _ language: Language, to json: inout JSONBuilder) {
        json.raw(#"{"id":"#)
        json.string(student.id)
        json.raw(#","given_name":"#)
        json.string(student.givenName)
        json.raw(#","family_name":"#)
        json.string(student.surname)
        json.raw(#","gr_number":"#)
        json.string(student.grNumber)
        json.raw(#","gender":"#)
        if let gender = student.gender { json.string(gender.rawValue) } else { json.raw("null") }
        json.raw(#","date_of_birth":"#)
        if let birth = student.dateOfBirth { json.string(APIInstant.midnight(of: birth).text) } else { json.raw("null") }
        json.raw(#","status":"#)
        json.string(student.status.rawValue)
        json.raw(#","photo_url":null,"phone":null,"section":"#)
        if let section = SectionItem(student, language) {
            json.raw(#"{"id":"#)
            json.string(section.id)
            json.raw(#","name":"#)
            json.string(section.name)
            json.raw(#","grade":"#)
            json.string(section.grade.value)
            json.raw("}")
        } else {
            json.raw("null")
        }
        json.raw("}")
    }
}
