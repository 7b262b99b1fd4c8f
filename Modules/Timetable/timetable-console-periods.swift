import Core

/// The school day's periods in the console, for those who manage the timetable: listed with
/// their times, added through `timetable.create-period` (a clash with another period, or a time
/// that is not one, refused beside its field), corrected (`timetable.update-period`) and removed
/// once no lesson is placed in them (`timetable.remove-period`). Laid out by the console's records pages.
enum TimetablePeriodsConsole {
    static let records = ConsoleRecords(
        "periods", title: Words.title, intro: Words.intro, empty: Words.empty, list: ListPeriods.self, input: { _ in .init() },
        permission: TimetablePermissions.manage,
        columns: [
            ConsoleRecordColumn("name", Words.name),
            ConsoleRecordColumn("code", Words.code, style: .code),
            ConsoleRecordColumn("starts_at", Words.startsAt, style: .code),
            ConsoleRecordColumn("ends_at", Words.endsAt, style: .code),
            ConsoleRecordColumn("is_break", Words.isBreak),
        ],
        create: ConsoleRecordForm(CreatePeriod.self, heading: Words.add, submit: Words.save, done: Words.added, fields: [
            ConsoleRecordField("code", Words.code, hint: Words.codeHint),
            ConsoleRecordField("name.ar", Words.nameAr),
            ConsoleRecordField("name.en", Words.nameEn),
            ConsoleRecordField("starts_at", Words.startsAt, .time),
            ConsoleRecordField("ends_at", Words.endsAt, .time),
            ConsoleRecordField("is_break", Words.isBreak, .checkbox, required: false),
        ]),
        edit: ConsoleRecordForm(UpdatePeriod.self, heading: Words.edit, submit: Words.saveChanges, done: Words.saved, fields: [
            ConsoleRecordField("name.ar", Words.nameAr),
            ConsoleRecordField("name.en", Words.nameEn),
            ConsoleRecordField("starts_at", Words.startsAt, .time),
            ConsoleRecordField("ends_at", Words.endsAt, .time),
            ConsoleRecordField("is_break", Words.isBreak, .checkbox, required: false),
        ]),
        remove: ConsoleRecordRemoval(RemovePeriod.self, button: Words.remove, explain: Words.removeExplain, confirm: Words.removeConfirm,
                                     done: Words.removed))

    enum Words {
        static let title = LocalizedText(ar: "حصص اليوم الدراسي", en: "Periods of the school day")
        static let intro = LocalizedText(ar: "الحصص والاستراحات بأوقاتها، كما يبني عليها الجدول كل أسبوع.",
                                         en: "The periods and breaks with their times, on which every week's timetable is built.")
        static let empty = LocalizedText(ar: "لا حصص بعد. أضف أول حصة أدناه.", en: "No periods yet. Add the first one below.")
        static let name = LocalizedText(ar: "الحصة", en: "Period")
        static let code = LocalizedText(ar: "الرمز", en: "Code")
        static let codeHint = LocalizedText(ar: "رمز قصير فريد، مثل P1.", en: "A short code of its own, such as P1.")
        static let nameAr = LocalizedText(ar: "الاسم بالعربية", en: "Name in Arabic")
        static let nameEn = LocalizedText(ar: "الاسم بالإنجليزية", en: "Name in English")
        static let startsAt = LocalizedText(ar: "تبدأ", en: "Starts")
        static let endsAt = LocalizedText(ar: "تنتهي", en: "Ends")
        static let isBreak = LocalizedText(ar: "استراحة", en: "A break")
        static let add = LocalizedText(ar: "أضف حصة", en: "Add a period")
        static let save = LocalizedText(ar: "أضف الحصة", en: "Add the period")
        static let added = LocalizedText(ar: "أُضيفت الحصة.", en: "The period was added.")
        static let edit = LocalizedText(ar: "صحّح الحصة", en: "Correct the period")
        static let saveChanges = LocalizedText(ar: "احفظ التصحيح", en: "Save the changes")
        static let saved = LocalizedText(ar: "حُفظت الحصة.", en: "The period was saved.")
        static let remove = LocalizedText(ar: "أزل هذه الحصة…", en: "Remove this period…")
        static let removeExplain = LocalizedText(ar: "تُزال {record} من اليوم الدراسي لكل الفصول. لا تُزال حصة ما زالت فيها دروس في الجدول.",
                                                 en: "{record} leaves the school day of every class. A period that still has lessons in the timetable is not removed.")
        static let removeConfirm = LocalizedText(ar: "نعم، أزل {record}", en: "Yes, remove {record}")
        static let removed = LocalizedText(ar: "أُزيلت الحصة.", en: "The period was removed.")
    }
}
