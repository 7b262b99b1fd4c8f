import Core
import Foundation

/// How each set-up form shows: what the school already has, then the form that adds one.
extension SetupForm {
    typealias Words = StudentsConsole.SetupWords

    func section(_ setup: RosterSetup, typed: [String: String], problem: String, field problemField: String?, done: Bool,
                 _ console: ConsoleRequest) -> [String: Any] {
        let id = "setup-" + rawValue
        func field(_ name: String, type: String = "text", ltr: Bool = false, initial: String = "", step: String = "",
                   choices: [(value: String, label: String)]? = nil) -> [String: Any] {
            let value = typed[name] ?? initial
            let invalid = problemField == name
            return ["id": "\(id)-\(name.replacingOccurrences(of: "_", with: "-"))", "name": name, "label": console.say(label(of: name)),
                    "type": type, "value": value, "ltr": ltr, "step": step, "invalid": invalid, "problemID": "\(id)-problem",
                    "select": choices != nil,
                    "choices": (choices ?? []).map { ["value": $0.value, "label": $0.label, "selected": $0.value == value] as [String: Any] }]
        }
        func name(_ text: LocalizedText) -> String { text.text(in: console.language) }
        let blank = (value: "", label: console.say(Words.choose))
        let (heading, items, fields): (LocalizedText, [String], [[String: Any]]) = switch self {
        case .year:
            (Words.years, setup.years.map { "\($0.name) · \(ConsoleDates.range($0.startsOn, $0.endsOn))" },
             [field("name", ltr: true), field("starts_on", type: "date", ltr: true), field("ends_on", type: "date", ltr: true)])
        case .term:
            (Words.terms, setup.terms.map { "\(name($0.name)) · \($0.schoolYear) · \(ConsoleDates.range($0.startsOn, $0.endsOn))" },
             [field("school_year", initial: setup.years.last?.name ?? "", choices: [blank] + setup.years.map { ($0.name, $0.name) }),
              field("name_ar"), field("name_en"), field("starts_on", type: "date", ltr: true), field("ends_on", type: "date", ltr: true)])
        case .level:
            (Words.levels, setup.yearLevels.map { "\($0.code) · \(name($0.name))" },
             [field("code", ltr: true), field("name_ar"), field("name_en"),
              field("position", type: "number", initial: String((setup.yearLevels.map(\.position).max() ?? 0) + 1), step: "1")])
        case .class:
            (Words.classes, setup.classes.map { "\($0.code) · \(name($0.name)) · \(console.say(Words.seats, ["taken": String($0.enrolled), "of": String($0.capacity)]))" },
             [field("code", ltr: true), field("name_ar"), field("name_en"),
              field("year_level", choices: [blank] + setup.yearLevels.map { ($0.code, "\($0.code) · \(name($0.name))") }),
              field("homeroom", choices: [("", console.say(Words.noHomeroom))] + setup.teachers.map { ($0.email, $0.displayName) }),
              field("capacity", type: "number", initial: "30", step: "1")])
        case .subject:
            (Words.subjects, setup.subjects.map { "\($0.code) · \(name($0.name))" },
             [field("code", ltr: true), field("name_ar"), field("name_en"), field("credits", type: "number", initial: "1", step: "any")])
        case .teach:
            (Words.teaching, setup.teaching.map { teaching in
                let teacher = setup.teachers.first { $0.email == teaching.teacherEmail }?.displayName ?? teaching.teacherEmail
                return "\(teaching.classCode) · \(teaching.subjectCode) · \(teacher)"
            },
             [field("teacher", choices: [blank] + setup.teachers.map { ($0.email, $0.displayName) }),
              field("class", choices: [blank] + setup.classes.map { ($0.code, "\($0.code) · \(name($0.name))") }),
              field("subject", choices: [blank] + setup.subjects.map { ($0.code, "\($0.code) · \(name($0.name))") })])
        }
        return [
            "id": id, "form": rawValue, "heading": console.say(heading), "items": items.map { ["text": $0] }, "hasItems": !items.isEmpty,
            "none": console.say(Words.none), "done": done ? console.say(Words.added) : "", "problem": problem, "fields": fields,
            "submit": console.say(Words.add),
        ]
    }
}
