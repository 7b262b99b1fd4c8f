import Auth
import Core
import Foundation
import Students

/// Who teaches what, what each enrolment became, and users a bulk file no longer lists.
extension OneRosterWriter {
    /// A scheduled class gives its teacher its course's subject in its homeroom class (or in
    /// itself when it stands alone), through `AssignTeacher`.
    mutating func teaching() throws {
        for schoolClass in plan.classes where !schoolClass.deleted && !schoolClass.isHomeroom {
            let homeroomID = sections[schoolClass.sourcedId].flatMap { classIDs[$0] ?? ids.target(OneRosterKind.classRecord, $0) }
                ?? classIDs[schoolClass.sourcedId]
            guard let homeroomID, let code = classCodes[homeroomID] ?? (try? Roster.classCode(id: homeroomID, context)),
                  let subjectID = ids.target(OneRosterKind.course, schoolClass.course), let subject = subjectCodes[subjectID] else { continue }
            if sections[schoolClass.sourcedId] != nil { ids.set(OneRosterKind.section, schoolClass.sourcedId, homeroomID + "|" + subjectID) }
            guard let (teacher, enrolment) = teacher(of: schoolClass.sourcedId), let email = teacher.email else { continue }
            let key = homeroomID + "|" + subjectID + "|" + teacher.sourcedId
            if ids.target("teaching", schoolClass.sourcedId) == key { continue }
            try at("enrollments", enrolment.row, "userSourcedId") {
                try OneRosterCall.run(AssignTeacher.self, .init(teacherEmail: email, classCode: code, subjectCode: subject), context)
            }
            ids.set("teaching", schoolClass.sourcedId, key)
            count("teaching", \.created)
        }
    }

    /// Every enrolment is remembered (a delta may archive it later); those Hogwarts cannot hold
    /// are listed with why.
    mutating func recordEnrollments() {
        var studentClass: [String: String] = [:]
        for enrolment in plan.enrollments where !enrolment.deleted && enrolment.role == "student" && classIDs[enrolment.classID] != nil {
            if studentClass[enrolment.userID] == nil || homeroomIDs.contains(enrolment.classID) {
                studentClass[enrolment.userID] = enrolment.classID
            }
        }
        for enrolment in plan.enrollments {
            ids.set(OneRosterKind.enrollment, enrolment.sourcedId, enrolment.classID + "|" + enrolment.userID, status: enrolment.deleted ? "tobedeleted" : "active")
            guard !enrolment.deleted else {
                note("enrollments", enrolment.row, "status", "oneroster.note.enrolment-kept")
                continue
            }
            switch enrolment.role {
            case "student":
                if sections[enrolment.classID] == nil, studentClass[enrolment.userID] != enrolment.classID {
                    note("enrollments", enrolment.row, "classSourcedId", "oneroster.note.second-class")
                }
            case "teacher":
                if chosenTeachers[enrolment.classID]?.sourcedId != enrolment.sourcedId {
                    note("enrollments", enrolment.row, "userSourcedId", "oneroster.note.second-teacher")
                }
            default:
                note("enrollments", enrolment.row, "role", "oneroster.note.role", ["role": enrolment.role])
            }
        }
    }

    /// A bulk users file is the whole list: people imported before and missing now are archived
    /// (students) and suspended (accounts), never deleted.
    mutating func archiveMissingUsers() throws {
        let listed = Set(plan.users.map(\.sourcedId))
        for (sourcedId, studentID) in ids.targets[OneRosterKind.student] ?? [:] where !listed.contains(sourcedId) {
            if let student = try? Roster.student(reference: studentID, context) {
                try OneRosterCall.run(ArchiveStudent.self, .init(grNumber: student.id), context)
                count("students", \.archived)
            }
        }
        for (sourcedId, accountID) in ids.targets[OneRosterKind.user] ?? [:] where !listed.contains(sourcedId) {
            if let account = ids.account(id: accountID), account.status == .active, account.id != context.principal.userID {
                try OneRosterCall.run(SetSuspended.self, UserChange(email: account.email, suspended: true), context)
                count("accounts", \.archived)
            }
        }
    }
}
