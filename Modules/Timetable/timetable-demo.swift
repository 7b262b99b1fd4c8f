import Core
import Students

/// A full two-week timetable for every demo class with no clashes: the first two periods are
/// the same every week, the rest differ between Week A and Week B. Each class has its own room
/// and each lesson goes to the teacher the roster assigned to that class and subject, taking the
/// first subject whose teacher is free in that day, period and week.
enum TimetableDemo {
    static let periods: [(code: String, ar: String, en: String, from: String, to: String, isBreak: Bool)] = [
        ("P1", "الحصة الأولى", "Period 1", "07:45", "08:30", false), ("P2", "الحصة الثانية", "Period 2", "08:30", "09:15", false),
        ("P3", "الحصة الثالثة", "Period 3", "09:15", "10:00", false), ("BRK", "الفطور", "Break", "10:00", "10:30", true),
        ("P4", "الحصة الرابعة", "Period 4", "10:30", "11:15", false), ("P5", "الحصة الخامسة", "Period 5", "11:15", "12:00", false),
        ("P6", "الحصة السادسة", "Period 6", "12:00", "12:45", false), ("P7", "الحصة السابعة", "Period 7", "12:45", "13:30", false),
        ("P8", "الحصة الثامنة", "Period 8", "13:30", "14:15", false),
    ]

    static func seed(_ context: ActionContext) throws {
        for period in periods {
            _ = try CreatePeriod().perform(.init(code: period.code, name: LocalizedText(ar: period.ar, en: period.en),
                                                 startsAt: period.from, endsAt: period.to, isBreak: period.isBreak), in: context)
        }
        _ = try AddClosure().perform(.init(from: "2026-11-01", to: "2026-11-05", name: "عطلة منتصف الفصل / Mid-term break"), in: context)
        let teaching = try context.database.fetchAll("""
            SELECT c.code AS class_code, s.code AS subject_code, u.email AS teacher FROM students_v1_teaching t
            JOIN students_v1_classes c ON c.school_id = t.school_id AND c.id = t.class_id
            JOIN students_v1_subjects s ON s.school_id = t.school_id AND s.id = t.subject_id
            JOIN auth_v1_people u ON u.school_id = t.school_id AND u.id = t.teacher_user_id
            WHERE t.school_id = :school_id ORDER BY c.code, s.code
            """)
        var subjectsByClass: [String: [(subject: String, teacher: String)]] = [:]
        for row in teaching {
            subjectsByClass[row.string("class_code"), default: []].append((row.string("subject_code"), row.string("teacher")))
        }
        var busy: Set<String> = []
        let lessonPeriods = periods.filter { !$0.isBreak }.map(\.code)
        for (classIndex, classCode) in subjectsByClass.keys.sorted().enumerated() {
            let subjects = subjectsByClass[classCode] ?? []
            // Lessons each subject already has per cycle week, so subjects spread evenly.
            var given: [String: [Int]] = [:]
            for day in 0..<5 {
                for (periodIndex, period) in lessonPeriods.enumerated() {
                    for week in periodIndex < 2 ? [-1] : [0, 1] {
                        let cycleWeeks = week == -1 ? [0, 1] : [week]
                        func isFree(_ candidate: (subject: String, teacher: String)) -> Bool {
                            cycleWeeks.allSatisfy { !busy.contains("\(candidate.teacher)|\(day)|\(period)|\($0)") }
                        }
                        func load(_ position: Int) -> (Int, Int) {
                            let subject = subjects[position].subject
                            let count = cycleWeeks.reduce(0) { $0 + (given[subject]?[$1] ?? 0) }
                            // Ties go round-robin, shifted per class, day and period.
                            return (count, (position + classIndex + day + periodIndex + max(week, 0) * 3) % subjects.count)
                        }
                        guard let position = subjects.indices.filter({ isFree(subjects[$0]) }).min(by: { load($0) < load($1) }) else { continue }
                        let choice = subjects[position]
                        for cycleWeek in cycleWeeks {
                            given[choice.subject, default: [0, 0]][cycleWeek] += 1
                            busy.insert("\(choice.teacher)|\(day)|\(period)|\(cycleWeek)")
                        }
                        let placement = SlotPlacement(day: day, periodCode: period, week: week, classCode: classCode,
                                                      subjectCode: choice.subject, teacherEmail: choice.teacher, room: "R-\(classCode)")
                        _ = try CreateSlot().perform(placement, in: context)
                    }
                }
            }
        }
    }
}
