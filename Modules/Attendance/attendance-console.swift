import Core
import Foundation
import Students

extension AttendanceModule: ConsoleModule {
    /// The register (everyone present, tap the exceptions, save once) and attendance cards.
    public var consolePages: [ConsolePage] { [AttendanceConsole.register, AttendanceConsoleExcuses.guardian, AttendanceConsoleExcuses.queue] }
    public var consoleCards: [ConsoleCard] {
        [AttendanceConsole.todayCard, AttendanceConsoleAbsent.card, AttendanceConsoleDashboard.termCard, AttendanceConsole.rateCard]
    }
}

/// Attendance in the console. The page only reads the form and runs `attendance.register` and
/// `attendance.take`: the class, the edit window, the period and the scope are the actions' rules.
enum AttendanceConsole {
    static let register = ConsolePage("register", title: Words.title, permission: AttendancePermissions.mark) { console in
        guard let classCode = (console.isPost ? console.form.value("class") : console.query["class"]).flatMap({ $0.isEmpty ? nil : $0 }) else {
            return try await classes(console)
        }
        let period = (console.isPost ? console.form.value("period") : console.query["period"]).flatMap { $0.isEmpty ? nil : $0 }
        if console.isPost { return try await save(console, classCode: classCode, period: period) }
        let sheet = try await console.run(ClassRegister.self, .init(classCode: classCode, period: period))
        return .page(title: console.say(Words.sheetTitle, ["class": sheet.classCode]), body: sheetBody(sheet, console))
    }

    /// One `attendance.take`: everyone PRESENT but the exceptions, by GR number. On a day the
    /// calendar calls a day off, only with the teacher's "take it anyway"; without it the sheet
    /// comes back with the warning and the marks as they were tapped.
    private static func save(_ console: ConsoleRequest, classCode: String, period: String?) async throws -> ConsoleResponse {
        var marks: [AttendanceMark] = []
        for (student, value) in console.form.fields(prefixed: "status.") {
            guard let status = AttendanceStatus(rawValue: value), choices.contains(status) else {
                throw InputError("kernel.error.invalid-argument", ["value": TextInput.printable(value), "name": student,
                                                                   "expected": choices.map(\.rawValue).joined(separator: ", ")])
            }
            if status != .present { marks.append(AttendanceMark(student: student, status: status)) }
        }
        if console.form.value("day-off") != "confirmed" {
            let sheet = try await console.run(ClassRegister.self, .init(classCode: classCode, period: period))
            if sheet.dayOff != nil {
                let tapped = Dictionary(marks.map { ($0.student, $0.status) }, uniquingKeysWith: { $1 })
                return .page(title: console.say(Words.sheetTitle, ["class": sheet.classCode]),
                             body: sheetBody(sheet, console, tapped: tapped, problem: console.say(Words.dayOffUnconfirmed)))
            }
        }
        let taken = try await console.run(TakeAttendance.self, .init(classCode: classCode, period: period, marks: marks))
        return .redirect(console.pagePath("attendance", "register", query: [
            ("class", taken.classCode), ("period", taken.period), ("saved", "1"),
            ("present", String(taken.totals.present)), ("absent", String(taken.totals.absent)), ("late", String(taken.totals.late)),
        ]))
    }

    /// What a teacher taps: present, absent or late (excuses come later, from guardians).
    static let choices: [AttendanceStatus] = [.present, .absent, .late]

    /// The sheet: one radio group per student (Tab from student to student, arrows or Space
    /// within one), what was recorded or `tapped` checked, the last save's result (focused after
    /// saving), who took it before, and the day-off warning with its confirmation.
    private static func sheetBody(_ sheet: ClassRegister.Output, _ console: ConsoleRequest, tapped: [String: AttendanceStatus]? = nil,
                                  problem: String? = nil) -> ConsoleHTML {
        let lines: [[String: Any]] = sheet.lines.map { line in
            let recorded = line.status.flatMap { choices.contains($0) ? $0 : nil } ?? .present
            let current = tapped.map { $0[line.grNumber] ?? .present } ?? recorded
            return [
                "position": line.position, "gr": line.grNumber, "name": line.name, "exception": current != .present,
                "choices": choices.map { status in
                    ["value": status.rawValue, "label": console.say(Words.status(status)), "checked": status == current,
                     "id": "s-\(line.position)-\(status.rawValue)"] as [String: Any]
                },
            ]
        }
        var saved = ""
        if console.query["saved"] != nil, problem == nil {
            saved = console.say(Words.saved, ["present": console.query["present"] ?? "0", "absent": console.query["absent"] ?? "0",
                                              "late": console.query["late"] ?? "0"])
        }
        let wholeDay = sheet.period == AttendancePeriod.wholeDay
        return Templates.sheet.render(console.common.merging([
            "class": sheet.classCode, "period": wholeDay ? "" : sheet.period,
            "when": console.say(Words.when, ["date": console.day(sheet.date), "period": wholeDay ? console.say(Words.wholeDay) : sheet.period]),
            "lines": lines, "count": sheet.lines.count, "saved": saved, "problem": problem ?? "",
            "hint": hint(sheet, console), "save": console.say(Words.save),
            "dayOff": dayOffWarning(sheet, console), "dayOffConfirm": console.say(Words.dayOffConfirm),
            "exceptionsLabel": console.say(Words.exceptions), "exceptions": lines.filter { $0["exception"] as? Bool == true }.count,
            "action": console.pagePath("attendance", "register"), "back": console.pagePath("attendance", "register"), "backText": console.say(Words.otherClass),
        ]) { $1 })
    }

    /// "Everyone starts present" on a fresh register; who took it and when on one taken before.
    private static func hint(_ sheet: ClassRegister.Output, _ console: ConsoleRequest) -> String {
        guard let taken = sheet.taken else { return console.say(Words.hint, ["count": String(sheet.lines.count)]) }
        // The time alone on the register's own day; the day too when it was taken on another (a correction).
        let day = CivilDate(taken.at, in: TimeZone(identifier: console.school.timeZone) ?? .gmt)
        let time = day == sheet.date ? console.clock(taken.at) : console.day(day) + " " + console.clock(taken.at)
        if let name = taken.byName { return console.say(Words.takenBy, ["time": time, "name": name]) }
        return console.say(Words.taken, ["time": time])
    }

    /// The warning in words for a day off, empty on a school day.
    private static func dayOffWarning(_ sheet: ClassRegister.Output, _ console: ConsoleRequest) -> String {
        guard let dayOff = sheet.dayOff else { return "" }
        let date = console.day(sheet.date)
        return switch dayOff.reason {
        case "weekend": console.say(Words.dayOffWeekend, ["date": date])
        case "outside-term": console.say(Words.dayOffOutsideTerm, ["date": date])
        default: dayOff.closure.map { console.say(Words.dayOffClosure, ["date": date, "name": $0]) } ?? console.say(Words.dayOffOther, ["date": date])
        }
    }

    /// The teacher's classes, each a link to its whole-day register; for those who take any
    /// class's register (the office), the school's classes to choose from.
    private static func classes(_ console: ConsoleRequest) async throws -> ConsoleResponse {
        let taught = (try? await console.run(ListTeacherClasses.self, .init())) ?? []
        let schoolWide = console.kernel.registry.policy.scope(of: console.principal.role, for: AttendancePermissions.mark) == .school
        let all = schoolWide ? try await console.run(ListClasses.self, .init()) : []
        var seen: Set<String> = []
        let rows: [[String: Any]] = taught.filter { seen.insert($0.classCode).inserted }.map { taught in
            ["href": console.pagePath("attendance", "register", query: [("class", taught.classCode)]),
             "text": "\(taught.classCode) · \(taught.className.text(in: console.language))",
             "count": console.say(Words.students, ["count": String(taught.studentCount)])]
        }
        return .page(title: console.say(Words.title), body: Templates.classes.render(console.common.merging([
            "classes": rows, "intro": console.say(Words.pick), "codeLabel": console.say(Words.classCode), "open": console.say(Words.open),
            "picks": !all.isEmpty, "pick": all.map { ["value": $0.code, "label": $0.label(in: console.language)] },
            "action": console.pagePath("attendance", "register"),
        ]) { $1 }))
    }

    /// Today's registers across the principal's reach (the whole school for staff, the classes of a teacher).
    static let todayCard = ConsoleCard("today", title: Words.todayTitle, permission: AttendancePermissions.stats) { console in
        let today = try await console.run(AttendanceToday.self, .init())
        let totals = today.totals
        guard totals.counted > 0 else { return ConsoleHTML.text(console.say(Words.nothingToday)) }
        let bars = choices.map { status in
            let value = switch status { case .present: totals.present; case .absent: totals.absent; default: totals.late }
            return ConsoleChart.Bar(label: console.say(Words.status(status)), value: Double(value), shown: String(value))
        }
        return Templates.today.render([
            "rate": today.rate.map { PercentText.text($0, band: RiskBand.init(rate:)) } ?? "-", "rateLabel": console.say(Words.rate),
            "chart": ConsoleChart.bars(bars, title: console.say(Words.todayChart, ["date": console.day(today.date)]), language: console.language, id: "attendance-today"),
        ])
    }

    /// A student's own rate and band, or each of a guardian's children's.
    static let rateCard = ConsoleCard("rate", title: Words.rateTitle, permission: AttendancePermissions.read) { console in
        guard [.student, .guardian].contains(console.principal.role) else { return nil }
        let children = try await console.run(ListStudents.self, .init(pageSize: 20)).students
        var rows: [[String: Any]] = []
        for child in children {
            let summary = try await console.run(AttendanceSummary.self, .init(student: child.grNumber))
            var row: [String: Any] = ["name": child.fullName, "absences": console.say(Words.absences, ["count": String(summary.totals.absences)])]
            if let rate = summary.rate, let band = summary.totals.band {
                row["rate"] = PercentText.text(rate, band: RiskBand.init(rate:))
                row["band"] = band.rawValue
                row["bandText"] = console.say(Words.band(band))
            } else {
                row["rate"] = "-"
                row["bandText"] = console.say(Words.nothingYet)
            }
            rows.append(row)
        }
        return Templates.rate.render(["children": rows])
    }
}
