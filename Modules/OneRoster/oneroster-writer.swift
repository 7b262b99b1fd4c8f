import Auth
import Core
import Foundation
import Students

/// Applies a checked plan through the Students and Auth actions, in dependency order: school
/// years and terms, year levels, subjects, accounts, classes, students, guardians, teaching.
struct OneRosterWriter {
    let context: ActionContext
    let plan: OneRosterPlan
    var ids: OneRosterIDs
    var created: [String: Int] = [:]
    var updated: [String: Int] = [:]
    var archived: [String: Int] = [:]
    var notes: [OneRosterViolation] = []
    var codes: [SetPasswordCode] = []
    /// Whether new accounts are invited by email (Auth's `InviteUser`) rather than given codes.
    var invite = false
    /// The emails invited.
    var invited: [String] = []
    /// Hogwarts class ids by OneRoster class, and class codes by Hogwarts id.
    var classIDs: [String: String] = [:]
    var classCodes: [String: String] = [:]
    var subjectCodes: [String: String] = [:]
    /// Student sourcedId to GR number, for links by GR number.
    var grNumbers: [String: String] = [:]
    let usersByID: [String: OneRosterPlan.User]
    let homeroomIDs: Set<String>
    /// Each class's teacher: its primary teacher, else the first one.
    let chosenTeachers: [String: OneRosterPlan.Enrollment]
    /// Each scheduled class's homeroom, when it is a subject taught there (see `homerooms`).
    var sections: [String: String] = [:]

    init(_ plan: OneRosterPlan, ids: OneRosterIDs, _ context: ActionContext) throws {
        self.context = context
        self.plan = plan
        self.ids = ids
        usersByID = Dictionary(plan.users.map { ($0.sourcedId, $0) }) { first, _ in first }
        homeroomIDs = Set(plan.classes.filter(\.isHomeroom).map(\.sourcedId))
        var teachers: [String: OneRosterPlan.Enrollment] = [:]
        for enrolment in plan.enrollments where !enrolment.deleted && enrolment.role == "teacher" {
            if teachers[enrolment.classID] == nil || (enrolment.primary && teachers[enrolment.classID]?.primary == false) {
                teachers[enrolment.classID] = enrolment
            }
        }
        chosenTeachers = teachers
        sections = homerooms()
    }

    mutating func apply() throws {
        try schoolYears()
        try terms()
        try yearLevels()
        try subjects()
        try accounts()
        try classes()
        try students()
        try guardians()
        try teaching()
        recordEnrollments()
        if plan.usersAreBulk { try archiveMissingUsers() }
        for org in plan.orgs { ids.set(OneRosterKind.org, org.sourcedId, context.school.id, status: org.deleted ? "tobedeleted" : "active") }
        try ids.flush(context)
    }

    /// Runs one write for a row; a refusal from Hogwarts' own rules comes back as that row's violation.
    @discardableResult
    func at<T>(_ file: String, _ row: Int, _ column: String = "-", _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as HogwartsError where !(error is OneRosterError) && !(error is KernelError) {
            throw OneRosterError.invalidSet([OneRosterViolation(file: file + ".csv", row: row, column: column, reason: context.localizer.message(for: error))])
        }
    }

    mutating func note(_ file: String, _ row: Int, _ column: String, _ key: String, _ arguments: [String: String] = [:]) {
        notes.append(OneRosterViolation(file: file + ".csv", row: row, column: column, reason: context.localizer(key, arguments)))
    }

    mutating func count(_ kind: String, _ table: WritableKeyPath<OneRosterWriter, [String: Int]>) {
        self[keyPath: table][kind, default: 0] += 1
    }

    /// One Hogwarts school year per `schoolYear` value: the `schoolYear` session's dates, else
    /// the span of that year's sessions. A year the school already has is used as it is.
    private mutating func schoolYears() throws {
        let active = plan.sessions.filter { !$0.deleted }
        for name in Set(active.map(\.yearName)).sorted() {
            let sessions = active.filter { $0.yearName == name }
            let own = sessions.first { $0.type == "schoolYear" }
            let startsOn = own?.startsOn ?? sessions.map(\.startsOn).min() ?? ""
            let endsOn = own?.endsOn ?? sessions.map(\.endsOn).max() ?? ""
            let input = CreateSchoolYear.Input(name: name, startsOn: startsOn, endsOn: endsOn)
            let exists: Bool
            do {
                try OneRosterCall.require(CreateSchoolYear.self, context)
                try context.published(by: CreateSchoolYear.moduleID) { try CreateSchoolYear().validate(input, in: context) }
                exists = false
            } catch StudentsError.codeTaken {
                exists = true
            } catch let error as HogwartsError where !(error is KernelError) {
                throw OneRosterError.invalidSet([OneRosterViolation(file: "academicSessions.csv", row: own?.row ?? sessions[0].row, column: "startDate",
                                                                    reason: context.localizer.message(for: error))])
            }
            if !exists {
                _ = try at("academicSessions", own?.row ?? sessions[0].row) { try context.published(by: CreateSchoolYear.moduleID) { try CreateSchoolYear().perform(input, in: context) } }
                count("school_years", \.created)
            }
            if let own { ids.set(OneRosterKind.session, own.sourcedId, "year:" + name) }
        }
    }

    private mutating func terms() throws {
        var existing: [String: String] = [:]
        // A term is the same term by either of its names (an export writes one language).
        for term in try OneRosterCall.run(ListTerms.self, .init(), context) {
            existing[term.schoolYear + "|" + term.name.ar] = term.id
            existing[term.schoolYear + "|" + term.name.en] = term.id
        }
        for session in plan.sessions where session.type != "schoolYear" && !session.deleted {
            if ids.target(OneRosterKind.session, session.sourcedId) != nil { continue }
            if let id = existing[session.yearName + "|" + session.title] {
                ids.set(OneRosterKind.session, session.sourcedId, id)
                continue
            }
            let term = try at("academicSessions", session.row, "startDate") {
                try OneRosterCall.run(CreateTerm.self, .init(schoolYear: session.yearName, name: LocalizedText(ar: session.title, en: session.title),
                                                             startsOn: session.startsOn, endsOn: session.endsOn), context)
            }
            ids.set(OneRosterKind.session, session.sourcedId, term.id)
            count("terms", \.created)
        }
    }

    private mutating func yearLevels() throws {
        for code in plan.levels {
            let input = CreateYearLevel.Input(code: code, name: OneRosterGrades.name(code), position: OneRosterGrades.position(code))
            do {
                try OneRosterCall.run(CreateYearLevel.self, input, context)
                count("year_levels", \.created)
            } catch StudentsError.codeTaken {
                continue
            }
        }
    }

    /// Courses become subjects, except those only homeroom classes use (a homeroom is not a subject).
    private mutating func subjects() throws {
        var existing: [String: String] = [:]
        for subject in try OneRosterCall.run(ListSubjects.self, .init(), context) {
            existing[subject.code] = subject.id
            subjectCodes[subject.id] = subject.code
        }
        let homeroomOnly = Set(plan.classes.filter(\.isHomeroom).map(\.course)).subtracting(plan.classes.filter { !$0.isHomeroom }.map(\.course))
        for course in plan.courses where !course.deleted {
            if homeroomOnly.contains(course.sourcedId) {
                note("courses", course.row, "sourcedId", "oneroster.note.homeroom-course")
                continue
            }
            if ids.target(OneRosterKind.course, course.sourcedId) != nil { continue }
            if let id = existing[course.code] {
                ids.set(OneRosterKind.course, course.sourcedId, id)
                continue
            }
            let id = try at("courses", course.row, "courseCode") {
                try OneRosterCall.run(CreateSubject.self, .init(code: course.code, name: LocalizedText(ar: course.title, en: course.title)), context)
            }
            existing[course.code] = id
            subjectCodes[id] = course.code
            ids.set(OneRosterKind.course, course.sourcedId, id)
            count("subjects", \.created)
        }
    }
}
