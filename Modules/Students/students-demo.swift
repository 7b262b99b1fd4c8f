import Auth
import Core
import Foundation

/// Builds a realistic, deterministic roster for a demo school: one school year with two terms,
/// year levels with sections, subjects, teachers with their classes, students with guardians,
/// and the seed's test accounts wired to real data.
struct StudentsDemo {
    let context: ActionContext
    let size: DemoSize

    private var levels: [(code: String, ar: String, en: String)] {
        let all = [("G7", "الصف السابع", "Grade 7"), ("G8", "الصف الثامن", "Grade 8"), ("G9", "الصف التاسع", "Grade 9"),
                   ("G10", "الصف العاشر", "Grade 10"), ("G11", "الصف الحادي عشر", "Grade 11"), ("G12", "الصف الثاني عشر", "Grade 12")]
        return size == .full ? all : Array(all.prefix(1))
    }
    private var sections: [(letter: String, arabic: String)] { size == .full ? [("A", "أ"), ("B", "ب"), ("C", "ج")] : [("A", "أ"), ("B", "ب")] }
    private var studentsPerClass: Int { size == .full ? 24 : 20 }
    private var teacherCount: Int { size == .full ? 30 : 4 }

    static let subjects: [(code: String, ar: String, en: String, credits: Double)] = [
        ("MATH", "الرياضيات", "Mathematics", 4), ("ARAB", "اللغة العربية", "Arabic", 4), ("ENG", "اللغة الإنجليزية", "English", 3),
        ("ISL", "التربية الإسلامية", "Islamic Studies", 2), ("SCI", "العلوم", "Science", 3), ("PHY", "الفيزياء", "Physics", 3),
        ("CHEM", "الكيمياء", "Chemistry", 3), ("BIO", "الأحياء", "Biology", 3), ("HIST", "التاريخ", "History", 2),
        ("GEO", "الجغرافيا", "Geography", 2), ("ICT", "الحاسوب", "Computing", 2), ("ART", "التربية الفنية", "Art", 1),
    ]

    func seed() throws {
        var random = DemoRandom(seed: size == .full ? 7 : 11)
        _ = try CreateSchoolYear().perform(.init(name: "2026-2027", startsOn: "2026-08-23", endsOn: "2027-06-30"), in: context)
        for (name, from, to) in [(LocalizedText(ar: "الفصل الدراسي الأول", en: "Term 1"), "2026-08-23", "2027-01-28"),
                                 (LocalizedText(ar: "الفصل الدراسي الثاني", en: "Term 2"), "2027-02-01", "2027-06-30")] {
            _ = try CreateTerm().perform(.init(schoolYear: "2026-2027", name: name, startsOn: from, endsOn: to), in: context)
        }
        for subject in Self.subjects {
            _ = try CreateSubject().perform(.init(code: subject.code, name: LocalizedText(ar: subject.ar, en: subject.en), credits: subject.credits), in: context)
        }
        let teachers = try seedTeachers()

        var classCodes: [String] = []
        for (position, level) in levels.enumerated() {
            _ = try CreateYearLevel().perform(.init(code: level.code, name: LocalizedText(ar: level.ar, en: level.en), position: position + 1), in: context)
            for section in sections {
                let code = "\(level.code.dropFirst())\(section.letter)"
                let homeroom = teachers[classCodes.count % teachers.count]
                _ = try CreateClass().perform(.init(
                    code: code, name: LocalizedText(ar: "\(level.ar) - \(section.arabic)", en: "\(level.en)-\(section.letter)"),
                    yearLevel: level.code, homeroomTeacherEmail: homeroom, capacity: 30), in: context)
                classCodes.append(code)
            }
        }
        // Each class gets eight subjects, each taught by a teacher; teacher@ gets several classes.
        for (classIndex, code) in classCodes.enumerated() {
            for (subjectIndex, subject) in Self.subjects.prefix(8).enumerated() {
                let teacher = teachers[(classIndex * 3 + subjectIndex) % teachers.count]
                _ = try AssignTeacher().perform(.init(teacherEmail: teacher, classCode: code, subjectCode: subject.code), in: context)
            }
        }
        try seedStudents(classCodes: classCodes, random: &random)
    }

    /// Teacher accounts; the first is the seed's teacher@databayt.org (or a second school's own).
    private func seedTeachers() throws -> [String] {
        try (0..<teacherCount).map { index in
            let email = switch (size, index) {
            case (.full, 0): "teacher@databayt.org"
            case (.full, _): "teacher\(index + 1)@databayt.org"
            case (.small, _): "teacher\(index + 1)@nile.databayt.org"
            }
            try UserAccounts.insert(id: context.newID(), email: email, displayName: DemoNames.teacherNames[index % DemoNames.teacherNames.count],
                                    role: .teacher, passwordHash: AuthDemo.passwordHash, in: context)
            return email
        }
    }

    private func seedStudents(classCodes: [String], random: inout DemoRandom) throws {
        let studentAccount = size == .full ? "student@databayt.org" : "student@nile.databayt.org"
        var number = 0
        var family: (surname: String, guardianID: String, isEnglish: Bool, remaining: Int)?
        for code in classCodes {
            for seat in 0..<studentsPerClass {
                number += 1
                let isEnglish = random.next() % 8 == 0
                let isGirl = random.next() % 2 == 0
                let given = random.pick(isEnglish ? (isGirl ? DemoNames.englishGirls : DemoNames.englishBoys) : (isGirl ? DemoNames.arabicGirls : DemoNames.arabicBoys))
                // Siblings share a surname and a guardian: about one family in four has two children here.
                let surname: String
                let guardianID: String
                if let current = family, current.remaining > 0, current.isEnglish == isEnglish {
                    surname = current.surname
                    guardianID = current.guardianID
                    family?.remaining -= 1
                } else {
                    surname = random.pick(isEnglish ? DemoNames.englishSurnames : DemoNames.arabicSurnames)
                    let fatherName = random.pick(isEnglish ? DemoNames.englishBoys : DemoNames.arabicBoys)
                    guardianID = try GuardianWriter.findOrCreate(
                        givenName: fatherName, surname: surname, email: nil, phone: String(format: "+2499%08d", Int(random.next() % 100_000_000)),
                        id: context.newID(), context)
                    family = (surname, guardianID, isEnglish, random.next() % 4 == 0 ? 1 : 0)
                }
                let level = Int(code.dropLast()) ?? 7
                let birthYear = 2026 - (level + 6)
                let fields = StudentFields(
                    grNumber: String(format: "GR-%04d", number + (size == .full ? 0 : 5000)), givenName: given, surname: surname,
                    nameLanguage: isEnglish ? "en" : "ar",
                    dateOfBirth: String(format: "%04d-%02d-%02d", birthYear, Int(random.next() % 12) + 1, Int(random.next() % 28) + 1),
                    gender: isGirl ? "FEMALE" : "MALE", enrolledOn: "2026-08-23", classCode: code)
                let studentID = context.newID()
                let userID = try (code == classCodes.first && seat == 0) ? studentUser(studentAccount, name: "\(given) \(surname)") : nil
                try StudentWriter.insert(id: studentID, fields, userID: userID, context)
                try GuardianWriter.link(guardianID: guardianID, studentID: studentID, relation: .father, isPrimary: true, context)
            }
        }
        try linkParentAccount(classCodes: classCodes)
    }

    private func studentUser(_ email: String, name: String) throws -> String {
        try UserAccounts.insert(id: context.newID(), email: email, displayName: name, role: .student, passwordHash: AuthDemo.passwordHash, in: context).id
    }

    /// parent@databayt.org is the mother of two students in different classes (in the small
    /// school, of one student): the same email in two schools shows the school choice at sign-in.
    private func linkParentAccount(classCodes: [String]) throws {
        let account = try UserAccounts.insert(id: context.newID(), email: "parent@databayt.org", displayName: "أم سارة", role: .guardian,
                                              passwordHash: AuthDemo.passwordHash, in: context)
        let guardianID = try GuardianWriter.findOrCreate(
            givenName: "هالة", surname: "عثمان", email: account.email, phone: "+249912345678", id: context.newID(), context)
        let children = size == .full ? [classCodes[0], classCodes[1]] : [classCodes[0]]
        for code in children {
            let studentID: String? = try context.database.fetchValue("""
                SELECT s.id FROM students_students s JOIN students_enrolments e ON e.school_id = s.school_id AND e.student_id = s.id
                JOIN students_classes c ON c.school_id = e.school_id AND c.id = e.class_id
                WHERE s.school_id = :school_id AND c.code = :code ORDER BY s.gr_number DESC LIMIT 1
                """, ["code": .text(code)])
            if let studentID {
                try GuardianWriter.link(guardianID: guardianID, studentID: studentID, relation: .mother, isPrimary: false, context)
            }
        }
    }
}
