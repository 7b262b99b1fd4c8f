import Core
import Foundation

/// The school's set-up in the browser, for those who manage the roster: school years, terms,
/// year levels, classes, subjects and who teaches what, each listed with a form that adds one
/// through its own action (`students.create-school-year` … `students.assign-teacher`). A refusal
/// is said above its form and beside its field, with what was typed kept; the other forms stay empty.
extension StudentsConsole {
    static let setup = ConsolePage("setup", title: SetupWords.title, permission: StudentsPermissions.manageRoster) { console in
        var refused: (form: String, typed: [String: String], field: String?, problem: String)?
        if console.isPost, let form = SetupForm(rawValue: console.form.value("form") ?? "") {
            var typed: [String: String] = [:]
            for field in form.fieldNames { typed[field] = String((console.form.value(field) ?? "").trimmingCharacters(in: .whitespaces).prefix(1_000)) }
            do {
                try await form.run(typed, console)
                return .redirect(console.pagePath("students", "setup", query: [("done", form.rawValue)]) + "#setup-" + form.rawValue)
            } catch let error as SetupForm.NotANumber {
                refused = (form.rawValue, typed, error.field, console.say(SetupWords.notANumber, ["field": console.say(form.label(of: error.field))]))
            } catch let error as InputError where error.messageKey == "students.error.required" {
                let field = error.messageArguments["field"] ?? ""
                refused = (form.rawValue, typed, field, console.say(SetupWords.fillIn, ["field": console.say(form.label(of: field))]))
            } catch let error where !(error is KernelError) && !(error is CancellationError) {
                refused = (form.rawValue, typed, (error as? InputError)?.messageArguments["field"], console.message(for: error))
            }
        }
        let setup = try await console.run(ShowRosterSetup.self, .init())
        let sections = SetupForm.allCases.map { form in
            let typed = refused?.form == form.rawValue ? refused?.typed ?? [:] : [:]
            let problem = refused?.form == form.rawValue ? refused?.problem ?? "" : ""
            let field = refused?.form == form.rawValue ? refused?.field : nil
            return form.section(setup, typed: typed, problem: problem, field: field, done: console.query["done"] == form.rawValue, console)
        }
        return .page(title: console.say(SetupWords.title), body: SetupTemplates.page.render(console.common.merging([
            "intro": console.say(SetupWords.intro), "sections": sections, "action": console.pagePath("students", "setup"),
        ]) { $1 }))
    }
}

/// One of the set-up page's forms: its fields, the action it runs, and what it lists.
enum SetupForm: String, CaseIterable {
    case year, term, level, `class`, subject, teach

    /// A number field left empty or holding something else.
    struct NotANumber: Error { let field: String }

    var fieldNames: [String] {
        switch self {
        case .year: ["name", "starts_on", "ends_on"]
        case .term: ["school_year", "name_ar", "name_en", "starts_on", "ends_on"]
        case .level: ["code", "name_ar", "name_en", "position"]
        case .class: ["code", "name_ar", "name_en", "year_level", "homeroom", "capacity"]
        case .subject: ["code", "name_ar", "name_en", "credits"]
        case .teach: ["teacher", "class", "subject"]
        }
    }

    func label(of field: String) -> LocalizedText {
        typealias W = StudentsConsole.SetupWords
        return switch field {
        case "name": W.yearName
        case "starts_on": W.startsOn
        case "ends_on": W.endsOn
        case "school_year": W.schoolYear
        case "name_ar": W.nameAr
        case "name_en": W.nameEn
        case "code": W.code
        case "position": W.position
        case "year_level": W.yearLevel
        case "homeroom": W.homeroom
        case "capacity": W.capacity
        case "credits": W.credits
        case "teacher": W.teacher
        case "class": W.schoolClass
        default: W.subject
        }
    }

    /// Runs the form's action with what was typed; numbers that are not numbers are refused by name.
    func run(_ typed: [String: String], _ console: ConsoleRequest) async throws {
        func text(_ name: String) -> String { typed[name] ?? "" }
        func number(_ name: String) throws -> Double {
            guard let value = Double(text(name)), value.isFinite, abs(value) < 1_000_000 else { throw NotANumber(field: name) }
            return value
        }
        func names() -> LocalizedText { LocalizedText(ar: text("name_ar"), en: text("name_en")) }
        switch self {
        case .year:
            _ = try await console.run(CreateSchoolYear.self, .init(name: text("name"), startsOn: text("starts_on"), endsOn: text("ends_on")))
        case .term:
            _ = try await console.run(CreateTerm.self, .init(schoolYear: text("school_year"), name: names(), startsOn: text("starts_on"), endsOn: text("ends_on")))
        case .level:
            _ = try await console.run(CreateYearLevel.self, .init(code: text("code"), name: names(), position: Int(try number("position"))))
        case .class:
            let homeroom = text("homeroom").isEmpty ? nil : text("homeroom")
            _ = try await console.run(CreateClass.self, .init(code: text("code"), name: names(), yearLevel: text("year_level"),
                                                              homeroomTeacherEmail: homeroom, capacity: Int(try number("capacity"))))
        case .subject:
            _ = try await console.run(CreateSubject.self, .init(code: text("code"), name: names(), credits: try number("credits")))
        case .teach:
            _ = try await console.run(AssignTeacher.self, .init(teacherEmail: text("teacher"), classCode: text("class"), subjectCode: text("subject")))
        }
    }
}
