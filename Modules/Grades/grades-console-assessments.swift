import Core
import Students

/// Assessments in the console: a teacher's (those of the subjects she teaches and of her
/// homeroom classes; every one for an administrator) listed, and a new one set through
/// `grades.create-assessment`, whose refusal (a date outside the term, marks that do not add up,
/// a subject she does not teach there) is shown beside its field. Laid out by the console's
/// records pages; marks are entered on the grade-entry page.
enum GradesAssessmentsConsole {
    static let records = ConsoleRecords(
        "assessments", title: Words.title, intro: Words.intro, empty: Words.empty, list: ListAssessments.self, input: { _ in .init() },
        columns: [
            ConsoleRecordColumn("title", Words.name),
            ConsoleRecordColumn("class_code", Words.schoolClass, style: .code),
            ConsoleRecordColumn("subject_code", Words.subject, style: .code),
            ConsoleRecordColumn("kind", Words.kind, words: kindWords),
            ConsoleRecordColumn("date", Words.date, style: .code),
            ConsoleRecordColumn("max_marks", Words.maxMarks, style: .code),
            ConsoleRecordColumn("passing_marks", Words.passingMarks, style: .code, listed: false),
            ConsoleRecordColumn("category", Words.category, listed: false),
            ConsoleRecordColumn("term", Words.term, listed: false),
            ConsoleRecordColumn("code", Words.code, style: .code, listed: false),
        ],
        create: ConsoleRecordForm(CreateAssessment.self, heading: Words.add, submit: Words.save, done: Words.added, fields: [
            ConsoleRecordField("title", Words.name),
            ConsoleRecordField("class_code", Words.schoolClass, .lookup { try await classes($0) }),
            ConsoleRecordField("subject_code", Words.subject, .lookup { try await subjects($0) }),
            ConsoleRecordField("term", Words.term, .lookup { try await terms($0) }),
            ConsoleRecordField("kind", Words.kind, .choice(AssessmentKind.allCases.compactMap { kind in kindWords[kind.rawValue].map { (kind.rawValue, $0) } })),
            ConsoleRecordField("date", Words.date, .date, hint: Words.dateHint),
            ConsoleRecordField("max_marks", Words.maxMarks, .decimal),
            ConsoleRecordField("passing_marks", Words.passingMarks, .decimal),
            ConsoleRecordField("category", Words.category, hint: Words.categoryHint),
            ConsoleRecordField("code", Words.code, hint: Words.codeHint),
        ]))

    static let kindWords: [String: LocalizedText] = [
        AssessmentKind.exam.rawValue: LocalizedText(ar: "امتحان", en: "Exam"),
        AssessmentKind.quiz.rawValue: LocalizedText(ar: "اختبار قصير", en: "Quiz"),
        AssessmentKind.test.rawValue: LocalizedText(ar: "اختبار", en: "Test"),
        AssessmentKind.practical.rawValue: LocalizedText(ar: "عملي", en: "Practical"),
        AssessmentKind.assignment.rawValue: LocalizedText(ar: "واجب", en: "Assignment"),
    ]

    /// Whether the person sets assessments for the whole school (else for what she teaches).
    static func schoolWide(_ console: ConsoleRequest) -> Bool {
        console.kernel.registry.policy.scope(of: console.principal.role, for: GradesPermissions.enter) == .school
    }

    /// The classes offered: the school's for an administrator, a teacher's own for her.
    static func classes(_ console: ConsoleRequest) async throws -> [(value: String, label: String)] {
        if schoolWide(console) {
            return try await console.run(ListClasses.self, .init()).map { ($0.code, $0.label(in: console.language)) }
        }
        var seen: Set<String> = []
        return try await console.run(ListTeacherClasses.self, .init()).filter { seen.insert($0.classCode).inserted }
            .map { ($0.classCode, "\($0.classCode) · \($0.className.text(in: console.language))") }
    }

    /// The subjects offered: the school's for an administrator, those a teacher teaches for her.
    static func subjects(_ console: ConsoleRequest) async throws -> [(value: String, label: String)] {
        let subjects = schoolWide(console) ? try await console.run(ListSubjects.self, .init())
            : try await console.run(ListMySubjects.self, .init()).map(\.subject)
        return subjects.map { ($0.code, "\($0.code) · \($0.name.text(in: console.language))") }
    }

    static func terms(_ console: ConsoleRequest) async throws -> [(value: String, label: String)] {
        try await console.run(ListTerms.self, .init()).map { ($0.id, "\($0.name.text(in: console.language)) (\($0.schoolYear))") }
    }

    enum Words {
        static let title = LocalizedText(ar: "التقييمات", en: "Assessments")
        static let intro = LocalizedText(ar: "امتحانات واختبارات وواجبات الفصول التي تدرّسها. تُدخَل درجاتها من صفحة إدخال الدرجات.",
                                         en: "The exams, tests and assignments of the classes you teach. Their marks are entered on the grade entry page.")
        static let empty = LocalizedText(ar: "لا تقييمات بعد. أضف أول تقييم أدناه.", en: "No assessments yet. Add the first one below.")
        static let name = LocalizedText(ar: "العنوان", en: "Title")
        static let schoolClass = LocalizedText(ar: "الفصل", en: "Class")
        static let subject = LocalizedText(ar: "المادة", en: "Subject")
        static let term = LocalizedText(ar: "الفصل الدراسي", en: "Term")
        static let kind = LocalizedText(ar: "النوع", en: "Kind")
        static let date = LocalizedText(ar: "التاريخ", en: "Date")
        static let dateHint = LocalizedText(ar: "يوم داخل الفصل الدراسي المختار.", en: "A day within the chosen term.")
        static let maxMarks = LocalizedText(ar: "الدرجة العظمى", en: "Out of")
        static let passingMarks = LocalizedText(ar: "درجة النجاح", en: "Pass mark")
        static let category = LocalizedText(ar: "الفئة", en: "Category")
        static let categoryHint = LocalizedText(ar: "تجمع التقييمات لأوزان الدرجات، مثل exams أو coursework.",
                                                en: "Groups assessments for the grade weights, such as exams or coursework.")
        static let code = LocalizedText(ar: "الرمز", en: "Code")
        static let codeHint = LocalizedText(ar: "رمز قصير فريد في المدرسة، مثل 7A-MATH-Q3.", en: "A short code, unique in the school, such as 7A-MATH-Q3.")
        static let add = LocalizedText(ar: "أضف تقييمًا", en: "Add an assessment")
        static let save = LocalizedText(ar: "أضف التقييم", en: "Add the assessment")
        static let added = LocalizedText(ar: "أُضيف التقييم. أدخل درجاته من صفحة إدخال الدرجات.", en: "The assessment was added. Enter its marks on the grade entry page.")
    }
}
