import Core
import Foundation

/// Words and choices the student pages share: a student's status, sex and guardians' relations in
/// words, a day isolated for Arabic text, and the school's classes as a select's choices.
extension StudentsConsole {
    enum Names {
        static func status(_ status: StudentStatus) -> LocalizedText {
            switch status {
            case .active: LocalizedText(ar: "منتظم", en: "Active")
            case .inactive: LocalizedText(ar: "غير منتظم", en: "Inactive")
            case .graduated: LocalizedText(ar: "متخرج", en: "Graduated")
            case .transferred: LocalizedText(ar: "منقول", en: "Transferred")
            case .suspended: LocalizedText(ar: "موقوف", en: "Suspended")
            }
        }

        static func gender(_ gender: Gender) -> LocalizedText {
            switch gender {
            case .male: LocalizedText(ar: "ذكر", en: "Male")
            case .female: LocalizedText(ar: "أنثى", en: "Female")
            }
        }

        static func relation(_ relation: GuardianRelation) -> LocalizedText {
            switch relation {
            case .mother: LocalizedText(ar: "الأم", en: "Mother")
            case .father: LocalizedText(ar: "الأب", en: "Father")
            case .grandparent: LocalizedText(ar: "الجد أو الجدة", en: "Grandparent")
            case .sibling: LocalizedText(ar: "الأخ أو الأخت", en: "Sibling")
            case .guardian: LocalizedText(ar: "وليّ الأمر", en: "Guardian")
            case .other: LocalizedText(ar: "صلة أخرى", en: "Other")
            }
        }

        static let notRecorded = LocalizedText(ar: "غير مسجّل", en: "Not recorded")
        static let noClass = LocalizedText(ar: "بلا فصل", en: "No class")
        static let chooseClass = LocalizedText(ar: "اختر فصلًا", en: "Choose a class")
        static let seats = LocalizedText(ar: "{code} · {name} ({enrolled} من {capacity})", en: "{code} · {name} ({enrolled} of {capacity})")
    }

    /// A `YYYY-MM-DD` text as the console prints a day (`ConsoleDates`), "not recorded" when empty.
    static func day(_ text: String?, _ console: ConsoleRequest) -> String {
        guard let text, !text.isEmpty else { return console.say(Names.notRecorded) }
        return CivilDate(text).map(console.day) ?? ConsoleDates.isolated(text)
    }

    /// A class as one line: its code and its name in the reader's language.
    static func classText(code: String?, name: LocalizedText?, _ console: ConsoleRequest) -> String {
        guard let code else { return console.say(Names.noClass) }
        return name.map { "\(code) · \($0.text(in: console.language))" } ?? code
    }

    /// This year's classes as choices of a select, `selected` chosen, with their seats taken.
    static func classChoices(_ classes: [SchoolClass], selected: String?, blank: LocalizedText?, _ console: ConsoleRequest) -> [[String: Any]] {
        let first: [[String: Any]] = blank.map { [["value": "", "label": console.say($0), "selected": selected?.isEmpty ?? true]] } ?? []
        return first + classes.map { schoolClass in
            ["value": schoolClass.id, "selected": schoolClass.id == selected,
             "label": console.say(Names.seats, ["code": schoolClass.code, "name": schoolClass.name.text(in: console.language),
                                                "enrolled": String(schoolClass.enrolled), "capacity": String(schoolClass.capacity)])]
        }
    }
}
