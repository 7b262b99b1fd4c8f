import Core
import Foundation
import Students

/// Excuses in the console: a guardian explains a child's absence with a note
/// (`attendance.submit-excuse`) and sees what they sent (`attendance.list-excuses`); whoever may
/// review decides the pending ones in a queue (`attendance.review-excuse`). The pages only read
/// forms: which records, which children, which classes and what a note may hold are the actions'.
enum AttendanceConsoleExcuses {
    typealias Words = ExcuseWords

    /// A guardian's page: their children's absences that can be explained and the excuses sent.
    static let guardian = ConsolePage("excuses", title: Words.title, permission: AttendancePermissions.submitExcuse,
                                      scopes: [.linkedChildren]) { console in
        let children = try await console.run(ListStudents.self, .init(pageSize: 20)).students
        let wanted = console.isPost ? console.form.value("child") : console.query["child"]
        guard let child = children.first(where: { $0.grNumber == wanted }) ?? children.first else {
            return .page(title: console.say(Words.title), body: ConsoleHTML.text(console.say(Words.noChildren)))
        }
        guard console.isPost else { return try await sheet(console, children: children, child: child) }
        return try await submit(console, children: children, child: child)
    }

    /// One `attendance.submit-excuse`; a refusal comes back beside the field it is about, with what was typed.
    private static func submit(_ console: ConsoleRequest, children: [Student], child: Student) async throws -> ConsoleResponse {
        let record = console.form.value("record") ?? ""
        let note = console.form.value("note") ?? ""
        let reasonValue = console.form.value("reason") ?? ""
        var problems: [String: String] = [:]
        if record.isEmpty { problems["record"] = console.say(Words.pickAbsence) }
        let reason = ExcuseReason(rawValue: reasonValue)
        if reason == nil { problems["reason"] = console.say(Words.pickReason) }
        if let reason, problems.isEmpty {
            do {
                let id = try await console.run(SubmitExcuse.self, .init(recordID: record, reason: reason, description: note))
                return .redirect(console.pagePath("attendance", "excuses", query: [("child", child.grNumber), ("sent", id)]))
            } catch let error as InputError where error.messageArguments["field"] == "description" {
                problems["note"] = console.message(for: error)
            } catch let error as any HogwartsError {
                problems["record"] = console.message(for: error)
            }
        }
        return try await sheet(console, children: children, child: child, problems: problems,
                               kept: ["record": record, "reason": reasonValue, "note": note])
    }

    /// The child picker, the form over the child's absences without an excuse, and the excuses sent.
    private static func sheet(_ console: ConsoleRequest, children: [Student], child: Student, problems: [String: String] = [:],
                              kept: [String: String] = [:]) async throws -> ConsoleResponse {
        let records = try await console.run(AttendanceRecords.self, .init(student: child.id, limit: 200)).records
        let sent = try await console.run(ListExcuses.self, .init(studentID: child.id)).excuses
        let excused = Set(sent.map(\.recordID))
        let open = records.filter { [.absent, .late].contains($0.status) && !excused.contains($0.id) }
        let absences: [[String: Any]] = open.map { line in
            ["value": line.id, "checked": kept["record"] == line.id || (kept["record"] == nil && open.count == 1),
             "text": console.say(Words.absence, ["date": console.day(line.date), "period": periodText(line, console),
                                                 "status": console.say(AttendanceConsole.Words.status(line.status))])]
        }
        let reasons: [[String: Any]] = ExcuseReason.allCases.map {
            ["value": $0.rawValue, "text": console.say(Words.reason($0)), "selected": kept["reason"] == $0.rawValue]
        }
        let excuses: [[String: Any]] = sent.map { excuse in
            ["when": console.say(Words.absence, ["date": CivilDate(excuse.date).map(console.day) ?? excuse.date,
                                                 "period": excuse.period == AttendancePeriod.wholeDay ? console.say(AttendanceConsole.Words.wholeDay) : excuse.period,
                                                 "status": console.say(AttendanceConsole.Words.status(excuse.recordStatus))]),
             "reason": console.say(Words.reason(excuse.reason)), "note": excuse.description, "state": excuse.status.rawValue.lowercased(),
             "stateText": console.say(Words.state(excuse.status)), "reviewNote": excuse.reviewNote ?? ""]
        }
        let pickers: [[String: Any]] = children.count < 2 ? [] : children.map {
            ["href": console.pagePath("attendance", "excuses", query: [("child", $0.grNumber)]), "name": $0.fullName,
             "current": $0.grNumber == child.grNumber]
        }
        var values: [String: Any] = [
            "children": pickers, "picker": !pickers.isEmpty, "childrenLabel": console.say(Words.whichChild), "child": child.grNumber,
            // The form stays while a refusal is said, even when no absence is left to pick.
            "hasAbsences": !absences.isEmpty || !problems.isEmpty,
            "lead": console.say(Words.lead, ["name": child.fullName]), "absences": absences, "absenceLabel": console.say(Words.absenceLabel),
            "pickAbsence": console.say(Words.pickAbsenceOption),
            "noAbsences": console.say(Words.noAbsences, ["name": child.fullName]), "reasons": reasons, "reasonLabel": console.say(Words.reasonLabel),
            "pickReason": console.say(Words.pickReasonOption), "noteLabel": console.say(Words.noteLabel), "noteHint": console.say(Words.noteHint),
            "note": kept["note"] ?? "", "send": console.say(Words.send), "action": console.pagePath("attendance", "excuses"),
            "sentTitle": console.say(Words.sentTitle), "excuses": excuses, "noneSent": console.say(Words.noneSent),
            "reviewNoteLabel": console.say(Words.reviewNote),
            "recordProblem": problems["record"] ?? "", "reasonProblem": problems["reason"] ?? "", "noteProblem": problems["note"] ?? "",
            "problem": problems.isEmpty ? "" : console.say(Words.notSent),
        ]
        if let id = console.query["sent"], problems.isEmpty, sent.contains(where: { $0.id == id }) {
            values["sent"] = console.say(Words.sentNotice)
        }
        return .page(title: console.say(Words.title), body: ExcuseTemplates.guardian.render(console.common.merging(values) { $1 }))
    }

    private static func periodText(_ line: AttendanceRecords.Line, _ console: ConsoleRequest) -> String {
        line.periodName.map { $0.text(in: console.language) } ?? console.say(AttendanceConsole.Words.wholeDay)
    }

    /// The queue of pending excuses in the reviewer's reach, each decided through `attendance.review-excuse`.
    static let queue = ConsolePage("excuse-queue", title: Words.queueTitle, permission: AttendancePermissions.reviewExcuse) { console in
        guard console.isPost else {
            var notice = ""
            if let id = console.query["decided"], let decided = try await console.run(ListExcuses.self, .init(excuseID: id)).excuses.first {
                notice = console.say(decided.status == .approved ? Words.approved : Words.rejected,
                                     ["name": decided.studentName, "date": CivilDate(decided.date).map(console.day) ?? decided.date])
            }
            return try await queuePage(console, notice: notice)
        }
        let excuse = console.form.value("excuse") ?? ""
        guard let decision = console.form.value("decision"), ["approve", "reject"].contains(decision) else {
            return try await queuePage(console, problem: console.say(Words.pickDecision), failed: excuse, note: console.form.value("note") ?? "")
        }
        let note = (console.form.value("note") ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        do {
            let decided = try await console.run(ReviewExcuse.self, .init(excuse: excuse, approve: decision == "approve", note: note.isEmpty ? nil : note))
            return .redirect(console.pagePath("attendance", "excuse-queue", query: [("decided", decided.id)]))
        } catch let error as any HogwartsError {
            return try await queuePage(console, problem: console.message(for: error), failed: excuse, note: note)
        }
    }

    /// The pending excuses, oldest absence first; a refused decision is said above the list and beside its excuse.
    private static func queuePage(_ console: ConsoleRequest, notice: String = "", problem: String = "", failed: String = "",
                                  note: String = "") async throws -> ConsoleResponse {
        let pending = try await console.run(ListExcuses.self, .init(status: .pending)).excuses.reversed()
        let rows: [[String: Any]] = pending.enumerated().map { index, excuse in
            let date = CivilDate(excuse.date).map(console.day) ?? excuse.date
            let period = excuse.period == AttendancePeriod.wholeDay ? console.say(AttendanceConsole.Words.wholeDay) : excuse.period
            return ["id": excuse.id, "n": index, "name": excuse.studentName, "class": excuse.classCode,
                    "when": console.say(Words.absence, ["date": date, "period": period,
                                                        "status": console.say(AttendanceConsole.Words.status(excuse.recordStatus))]),
                    "reason": console.say(Words.reason(excuse.reason)), "note": excuse.description,
                    "problem": excuse.id == failed ? problem : "", "kept": excuse.id == failed ? note : ""]
        }
        return .page(title: console.say(Words.queueTitle), body: ExcuseTemplates.queue.render(console.common.merging([
            "excuses": rows, "hasExcuses": !rows.isEmpty, "empty": console.say(Words.queueEmpty), "notice": notice, "problem": problem,
            "lead": console.say(Words.queueLead, ["count": String(rows.count)]), "noteHeading": console.say(Words.noteLabel),
            "approve": console.say(Words.approve), "reject": console.say(Words.reject), "decision": console.say(Words.decision), "pickDecisionOption": console.say(Words.pickDecisionOption),
            "reasonLabel": console.say(Words.reviewReason), "save": console.say(Words.decide), "action": console.pagePath("attendance", "excuse-queue"),
        ]) { $1 }))
    }
}
