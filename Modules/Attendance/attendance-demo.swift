import Core

/// 60 school days of whole-day records before 22 November 2026 (Sunday to Thursday, skipping the
/// demo calendar's mid-term break of 1-5 November), with a realistic mix: most students regular,
/// some often late, a few chronically absent. Seeded, so every demo is the same.
enum AttendanceDemo {
    static let lastDay = CivilDate("2026-11-19") ?? CivilDate(dayNumber: 0)
    static let midTermBreak = DateSpan(CivilDate("2026-11-01") ?? CivilDate(dayNumber: 0), CivilDate("2026-11-05") ?? CivilDate(dayNumber: 0))

    static var schoolDays: [CivilDate] {
        var days: [CivilDate] = []
        var day = lastDay
        while days.count < 60 {
            if day.weekday <= 4 && !midTermBreak.contains(day) { days.append(day) }
            day = day.adding(days: -1)
        }
        return days.reversed()
    }

    static func seed(_ context: ActionContext, size: DemoSize) throws {
        var random = DemoRandom(seed: size == .full ? 23 : 29)
        let students = try context.database.fetchAll("""
            SELECT e.student_id, e.class_id, c.homeroom_teacher_id FROM students_v1_enrolments e
            JOIN students_v1_classes c ON c.school_id = e.school_id AND c.id = e.class_id
            WHERE e.school_id = :school_id ORDER BY e.class_id, e.student_id
            """)
        let days = schoolDays
        for student in students {
            // 80% regular, 10% often late, 5% chronically absent, 5% mixed.
            let profile = random.next() % 100
            let (absentPercent, latePercent, sickPercent): (UInt64, UInt64, UInt64) = switch profile {
            case 0..<80: (1, 2, 1)
            case 80..<90: (2, 20, 1)
            case 90..<95: (18, 5, 4)
            default: (7, 8, 3)
            }
            for day in days {
                let roll = random.next() % 100
                let status: AttendanceStatus = roll < absentPercent ? .absent
                    : roll < absentPercent + latePercent ? .late
                    : roll < absentPercent + latePercent + sickPercent ? .sick : .present
                try context.database.insert(into: "attendance_records", [
                    "id": .text(context.newID()), "student_id": .text(student.string("student_id")), "class_id": .text(student.string("class_id")),
                    "date": .text(day.description), "period": .text(AttendancePeriod.wholeDay), "status": .text(status.rawValue),
                    "method": .text(random.next() % 5 == 0 ? AttendanceMethod.qrCode.rawValue : AttendanceMethod.manual.rawValue),
                    "marked_by": .text(student["homeroom_teacher_id"] ?? "operator"), "marked_at": SQLValue(context.now),
                ])
            }
        }
    }
}
