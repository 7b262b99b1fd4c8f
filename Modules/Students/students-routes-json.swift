import Core
import Foundation

/// The student list's body, written by hand. It is the API's busiest route (the benchmark's
/// student page), and Foundation's JSONEncoder took about ten times as long for a page, most
/// of it converting every key of every row to snake_case. The JSON is the same as
/// `APIPage<StudentItem>` through `APIResponse.json` (a test compares the two); strings are
/// escaped by Core's `JSONText`, as every answer's. `APIResponse.json` now has a streaming
/// writer of its own; this page stays by hand until the list is measured with that writer.
struct StudentListBody {
    private var bytes: [UInt8] = []

    /// `{data, total, page, per_page}` of `StudentItem`s.
    static func page(_ students: [Student], total: Int, paging: APIPaging, language: Language) -> Data {
        var body = StudentListBody()
        body.bytes.reserveCapacity(64 + students.count * 420)
        body.raw(#"{"data":["#)
        for (index, student) in students.enumerated() {
            if index > 0 { body.raw(",") }
            body.item(student, language)
        }
        body.raw(#"],"total":"#)
        body.integer(total)
        body.raw(#","page":"#)
        body.integer(paging.page)
        body.raw(#","per_page":"#)
        body.integer(paging.perPage)
        body.raw("}")
        return Data(body.bytes)
    }

    /// One `StudentItem`, keys in the same order.
    private mutating func item(_ student: Student, _ language: Language) {
        raw(#"{"id":"#)
        string(student.id)
        raw(#","given_name":"#)
        string(student.givenName)
        raw(#","family_name":"#)
        string(student.surname)
        raw(#","gr_number":"#)
        string(student.grNumber)
        raw(#","gender":"#)
        string(student.gender.rawValue)
        raw(#","date_of_birth":"#)
        string(student.dateOfBirth)
        raw(#","status":"#)
        string(student.status.rawValue)
        raw(#","photo_url":null,"phone":null,"section":"#)
        if let section = SectionItem(student, language) {
            raw(#"{"id":"#)
            string(section.id)
            raw(#","name":"#)
            string(section.name)
            raw(#","grade":"#)
            if let grade = section.grade { string(grade) } else { raw("null") }
            raw("}")
        } else {
            raw("null")
        }
        raw("}")
    }

    private mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private mutating func integer(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
    }

    private mutating func string(_ text: String) {
        JSONText.append(text, to: &bytes)
    }
}
