import Auth
import Core
import Foundation
import Students

/// Classes, students, guardians and teaching.
///
/// Hogwarts keeps one class per student per school year, with subjects taught in it. So a
/// `homeroom` class is a class; a `scheduled` class is a subject taught in a homeroom class
/// (the one Hogwarts wrote in `metadata.hogwarts.homeroom`, else the one all its students share),
/// and otherwise a class of its own.
extension OneRosterWriter {
    /// Active enrolments of students, and of teachers, by class.
    private var studentEnrolments: [OneRosterPlan.Enrollment] { plan.enrollments.filter { !$0.deleted && $0.role == "student" } }

    /// Each scheduled class's homeroom class (by sourcedId), or nil when it stands alone.
    func homerooms() -> [String: String] {
        let homeroomIDs = Set(plan.classes.filter(\.isHomeroom).map(\.sourcedId))
        let studentEnrolments = plan.enrollments.filter { !$0.deleted && $0.role == "student" }
        var homeroomOf: [String: String] = [:]
        var studentsOf: [String: [String]] = [:]
        for enrolment in studentEnrolments {
            if homeroomIDs.contains(enrolment.classID) { homeroomOf[enrolment.userID] = enrolment.classID }
            studentsOf[enrolment.classID, default: []].append(enrolment.userID)
        }
        var result: [String: String] = [:]
        for schoolClass in plan.classes where !schoolClass.isHomeroom {
            if let hint = schoolClass.homeroomHint, homeroomIDs.contains(hint) || ids.target(OneRosterKind.classRecord, hint) != nil {
                result[schoolClass.sourcedId] = hint
                continue
            }
            let students = studentsOf[schoolClass.sourcedId] ?? []
            let shared = Set(students.map { homeroomOf[$0] })
            if !students.isEmpty, shared.count == 1, let only = shared.first, let only { result[schoolClass.sourcedId] = only }
        }
        return result
    }

    /// The teacher a class names first: its primary teacher, else the first one.
    func teacher(of classID: String) -> (user: OneRosterPlan.User, enrolment: OneRosterPlan.Enrollment)? {
        guard let chosen = chosenTeachers[classID], let user = usersByID[chosen.userID] else { return nil }
        return (user, chosen)
    }

    mutating func classes() throws {
        var existing: [String: String] = [:]
        for schoolClass in try OneRosterCall.run(ListClasses.self, .init(), context) {
            existing[schoolClass.code] = schoolClass.id
            classCodes[schoolClass.id] = schoolClass.code
        }
        var seats: [String: Int] = [:]
        for enrolment in studentEnrolments { seats[enrolment.classID, default: 0] += 1 }
        for schoolClass in plan.classes where !schoolClass.deleted && sections[schoolClass.sourcedId] == nil {
            if let id = ids.target(OneRosterKind.classRecord, schoolClass.sourcedId), classCodes[id] != nil {
                classIDs[schoolClass.sourcedId] = id
                continue
            }
            if let id = existing[schoolClass.code] {
                classIDs[schoolClass.sourcedId] = id
                ids.set(OneRosterKind.classRecord, schoolClass.sourcedId, id)
                continue
            }
            let homeroom = schoolClass.isHomeroom ? teacher(of: schoolClass.sourcedId)?.user.email : nil
            let input = CreateClass.Input(code: schoolClass.code, name: LocalizedText(ar: schoolClass.title, en: schoolClass.title),
                                          yearLevel: schoolClass.levelCode ?? "", homeroomTeacherEmail: homeroom,
                                          capacity: min(200, max(30, seats[schoolClass.sourcedId] ?? 0)))
            let id = try at("classes", schoolClass.row, "classCode") { try OneRosterCall.run(CreateClass.self, input, context) }
            existing[schoolClass.code] = id
            classCodes[id] = schoolClass.code
            classIDs[schoolClass.sourcedId] = id
            ids.set(OneRosterKind.classRecord, schoolClass.sourcedId, id)
            count("classes", \.created)
        }
    }

    /// The Hogwarts class each student sits in: their homeroom, else the first class of their own
    /// (in this set, or imported before: a delta may enrol into a class it does not repeat).
    private func placement() -> [String: String] {
        var placed: [String: String] = [:]
        for enrolment in studentEnrolments where homeroomIDs.contains(enrolment.classID) { placed[enrolment.userID] = enrolment.classID }
        for enrolment in studentEnrolments where placed[enrolment.userID] == nil && hogwartsClass(enrolment.classID) != nil {
            placed[enrolment.userID] = enrolment.classID
        }
        return placed
    }

    /// The Hogwarts class a OneRoster class became, in this import or an earlier one.
    func hogwartsClass(_ sourcedId: String) -> String? {
        classIDs[sourcedId] ?? ids.target(OneRosterKind.classRecord, sourcedId)
    }

    /// A Hogwarts class's code, from this import's list or Students.
    func code(ofClass id: String) -> String? {
        classCodes[id] ?? (try? Roster.classCode(id: id, context))
    }

    mutating func students() throws {
        try OneRosterCall.require(CreateStudents.self, context)
        let placed = placement()
        let students = plan.users.filter { $0.role == .student }
        // The school's students by GR number and id, read once through Students instead of a look-up per row.
        var byGR: [String: Student] = [:], byID: [String: Student] = [:]
        for student in try Roster.visibleStudents(context) {
            byGR[student.grNumber] = student
            byID[student.id] = student
        }
        let label = context.localizer("oneroster.progress.students")
        var fresh: [OneRosterPlan.User] = [], rows: [StudentFields] = []
        for (index, user) in students.enumerated() {
            if index % 200 == 0 { context.progress?(index, students.count, label) }
            let classCode = placed[user.sourcedId].flatMap { hogwartsClass($0) }.flatMap { code(ofClass: $0) }
            if user.deleted {
                if let id = ids.target(OneRosterKind.student, user.sourcedId), let student = byID[id] {
                    try OneRosterCall.run(ArchiveStudent.self, .init(grNumber: student.id), context)
                    count("students", \.archived)
                }
                continue
            }
            var known = ids.target(OneRosterKind.student, user.sourcedId).flatMap { byID[$0] }
            if known == nil, !user.identifier.isEmpty { known = byGR[user.identifier] }
            if let known {
                ids.set(OneRosterKind.student, user.sourcedId, known.id)
                grNumbers[user.sourcedId] = known.grNumber
                try update(known, to: user, classCode: classCode)
                continue
            }
            fresh.append(user)
            rows.append(StudentFields(
                grNumber: user.identifier, givenName: user.givenName, surname: user.familyName,
                nameLanguage: Self.isArabic(user.givenName + user.familyName) ? "ar" : "en", dateOfBirth: user.birthDate,
                gender: user.sex.uppercased(), classCode: classCode, accountEmail: user.email))
        }
        // New students go to Students in one `CreateStudents` batch: `CreateStudent`'s rules, one read of the school.
        if !rows.isEmpty {
            context.progress?(students.count, students.count, label)
            let created: [CreatedStudent]
            do {
                created = try OneRosterCall.run(CreateStudents.self, .init(students: rows), context)
            } catch let error as BatchRowError {
                throw OneRosterError.invalidSet([OneRosterViolation(file: "users.csv", row: fresh[error.index].row, column: "sourcedId",
                                                                    reason: context.localizer.message(for: error))])
            }
            for (user, student) in zip(fresh, created) {
                ids.set(OneRosterKind.student, user.sourcedId, student.id)
                grNumbers[user.sourcedId] = student.grNumber
                count("students", \.created)
            }
        }
        try enrolKnownStudents(placed, listed: Set(students.map(\.sourcedId)))
    }

    /// Enrolments of students this set does not list (a delta of enrolments only), through `EnrolStudent`.
    private mutating func enrolKnownStudents(_ placed: [String: String], listed: Set<String>) throws {
        for (user, classSourcedId) in placed.sorted(by: { $0.key < $1.key }) where !listed.contains(user) {
            guard let studentID = ids.target(OneRosterKind.student, user), let student = try? Roster.student(reference: studentID, context),
                  let classID = hogwartsClass(classSourcedId), let code = code(ofClass: classID), code != student.classCode else { continue }
            let row = plan.enrollments.first { $0.userID == user && $0.classID == classSourcedId }?.row ?? 1
            try at("enrollments", row, "classSourcedId") { try OneRosterCall.run(EnrolStudent.self, .init(grNumber: student.grNumber, classCode: code), context) }
            count("students", \.updated)
        }
    }

    /// A known student follows the set's names, birth date, sex and class, through `UpdateStudent`.
    private mutating func update(_ student: Student, to user: OneRosterPlan.User, classCode: String?) throws {
        var change = StudentChange(grNumber: student.id)
        if user.givenName != student.givenName { change.givenName = user.givenName }
        if user.familyName != student.surname { change.surname = user.familyName }
        if !user.birthDate.isEmpty, user.birthDate != student.dateOfBirth { change.dateOfBirth = user.birthDate }
        if !user.sex.isEmpty, user.sex.uppercased() != student.gender?.rawValue { change.gender = user.sex.uppercased() }
        if let classCode, classCode != student.classCode { change.classCode = classCode }
        guard change.givenName != nil || change.surname != nil || change.dateOfBirth != nil || change.gender != nil || change.classCode != nil else { return }
        try at("users", user.row, "sourcedId") { try OneRosterCall.run(UpdateStudent.self, change, context) }
        count("students", \.updated)
    }

    static func isArabic(_ text: String) -> Bool {
        text.unicodeScalars.contains { (0x0600...0x06FF).contains($0.value) || (0x0750...0x077F).contains($0.value) }
    }

    /// Guardians are linked to the students that name them in `agentSourcedIds`, or that they name.
    mutating func guardians() throws {
        var children: [String: [String]] = [:]
        for user in plan.users where !user.deleted {
            for agent in user.agents {
                if user.role == .guardian { children[user.sourcedId, default: []].append(agent) }
                else if user.role == .student { children[agent, default: []].append(user.sourcedId) }
            }
        }
        for guardian in plan.users where guardian.role == .guardian && !guardian.deleted {
            for child in Array(Set(children[guardian.sourcedId] ?? [])).sorted() {
                guard let gr = try grNumber(of: child) else { continue }
                let key = guardian.sourcedId + "|" + child
                if ids.target("guardian-link", key) != nil { continue }
                // Without an email `LinkGuardian` cannot find the guardian again: one the child
                // already has under the same name is the same person.
                if guardian.email == nil, let same = try OneRosterCall.run(ShowStudent.self, .init(grNumber: gr), context).guardians
                    .first(where: { $0.givenName == guardian.givenName && $0.surname == guardian.familyName }) {
                    ids.set(OneRosterKind.guardian, guardian.sourcedId, same.id)
                    ids.set("guardian-link", key, same.id)
                    continue
                }
                let linked = try at("users", guardian.row, "agentSourcedIds") {
                    try OneRosterCall.run(LinkGuardian.self, .init(
                        grNumber: gr, givenName: guardian.givenName, surname: guardian.familyName, email: guardian.email,
                        relation: Self.relation(guardian)), context)
                }
                ids.set(OneRosterKind.guardian, guardian.sourcedId, linked.id)
                ids.set("guardian-link", key, linked.id)
                count("guardian_links", \.created)
            }
        }
    }

    private func grNumber(of studentSourcedId: String) throws -> String? {
        if let gr = grNumbers[studentSourcedId] { return gr }
        guard let id = ids.target(OneRosterKind.student, studentSourcedId) else { return nil }
        return try? Roster.student(reference: id, context).grNumber
    }

    static func relation(_ guardian: OneRosterPlan.User) -> GuardianRelation {
        switch guardian.sourceRole {
        case "parent": guardian.sex == "female" ? .mother : guardian.sex == "male" ? .father : .guardian
        case "relative": .other
        default: .guardian
        }
    }
}
