import Core
import Foundation
import Students

/// What the term page and the print view share: the term and class pickers' choices, a class's
/// students as `students.list` gives them to this person, and one report card
/// (`grades.report-card`) as template values. No rule lives here: who sees which student, and
/// whether a draft may be read, is the actions' answer.
enum GradesConsoleCards {
    /// The school's terms, earliest first (`students.list-terms`).
    static func terms(_ console: ConsoleRequest) async throws -> [Term] {
        try await console.run(ListTerms.self, .init()).sorted { ($0.startsOn, $0.id) < ($1.startsOn, $1.id) }
    }

    /// The term a page names by id (or name, as the action reads it), else the first; nil when the school has none.
    static func term(_ reference: String?, in terms: [Term]) -> Term? {
        guard let reference, !reference.isEmpty else { return terms.first }
        return terms.first { $0.id == reference || $0.name.en == reference || $0.name.ar == reference }
    }

    /// A class named by its code or id, among this year's classes (`students.list-classes`).
    static func schoolClass(_ reference: String, in classes: [SchoolClass]) -> SchoolClass? {
        classes.first { $0.code == reference || $0.id == reference }
    }

    /// Every student of a class this person may see, a page of `students.list` at a time.
    static func students(of classCode: String, _ console: ConsoleRequest) async throws -> [Student] {
        var students: [Student] = []
        var page = 1
        while true {
            let found = try await console.run(ListStudents.self, .init(classCode: classCode, sort: .name, page: page, pageSize: StudentPage.maximumPageSize))
            students += found.students
            guard page < found.pageCount, !found.students.isEmpty else { return students }
            page += 1
        }
    }

    /// The terms as a select's options, by name (their dates are said beside the chosen one: an
    /// option that long would be cut on a phone).
    static func termOptions(_ terms: [Term], chosen: Term?, _ console: ConsoleRequest) -> [[String: Any]] {
        terms.map { term in ["id": term.id, "name": term.name.text(in: console.language), "selected": term.id == chosen?.id] as [String: Any] }
    }

    /// One report card as the templates show it: the student, their subjects, the GPA and the rank.
    static func values(_ card: ReportCard.Output, _ console: ConsoleRequest) -> [String: Any] {
        [
            "gr": card.grNumber, "name": card.studentName, "class": card.classCode, "term": card.term.text(in: console.language),
            "published": card.published, "draft": card.published ? "" : console.say(Words.draft),
            "gpa": card.record.gpa.map { String(format: "%.2f", $0) } ?? "-",
            "rank": card.rank.map { console.say(Words.rank, ["rank": String($0), "size": String(card.classSize)]) } ?? "",
            "subjects": card.record.subjects.map { mark in
                ["name": mark.subjectName.text(in: console.language), "letter": mark.letter ?? "-",
                 "percent": mark.percentage.map { String(format: "%.1f%%", $0) } ?? "-", "reason": mark.overrideReason ?? ""]
            },
            "noSubjects": card.record.subjects.isEmpty ? console.say(Words.noSubjects) : "",
        ]
    }

    /// The column and label words every card uses.
    static func labels(_ console: ConsoleRequest) -> [String: Any] {
        ["subjectLabel": console.say(GradesConsole.Words.subject), "percentLabel": console.say(GradesConsole.Words.percent),
         "letterLabel": console.say(GradesConsole.Words.letter), "gpaLabel": console.say(GradesConsole.Words.gpa),
         "classLabel": console.say(Words.classWord), "termLabel": console.say(GradesConsole.Words.term)]
    }

    /// Report cards in order of rank in the class (no rank last), then by name.
    static func ranked(_ cards: [ReportCard.Output]) -> [ReportCard.Output] {
        cards.sorted { ($0.rank ?? .max, $0.studentName, $0.grNumber) < ($1.rank ?? .max, $1.studentName, $1.grNumber) }
    }

    enum Words {
        static let draft = LocalizedText(ar: "مسودة: لم تُنشر بعد.", en: "Draft: not published yet.")
        static let rank = LocalizedText(ar: "الترتيب {rank} من {size}", en: "Rank {rank} of {size}")
        static let noSubjects = LocalizedText(ar: "لا نتائج في هذا الفصل الدراسي.", en: "No results this term.")
        static let classWord = LocalizedText(ar: "الصف", en: "Class")
    }
}
