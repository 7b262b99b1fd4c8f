import Core

extension AttendanceConsole {
    /// The console's words for attendance, in both languages.
    enum Words {
        static let title = LocalizedText(ar: "التحضير", en: "Registers")
        static let sheetTitle = LocalizedText(ar: "تحضير {class}", en: "Register: {class}")
        static let when = LocalizedText(ar: "{date} · {period}", en: "{date} · {period}")
        static let wholeDay = LocalizedText(ar: "اليوم كاملًا", en: "whole day")
        static let hint = LocalizedText(ar: "الجميع حاضرون. المس الاستثناءات فقط ثم احفظ مرة واحدة ({count} طالبًا).",
                                        en: "Everyone starts present. Tap only the exceptions, then save once ({count} students).")
        static let takenBy = LocalizedText(ar: "أُخذ هذا التحضير في {time} بواسطة {name}. غيّر ما اختلف فقط ثم احفظ.",
                                           en: "Already taken at {time} by {name}. Change only what is different, then save.")
        static let taken = LocalizedText(ar: "أُخذ هذا التحضير في {time}. غيّر ما اختلف فقط ثم احفظ.",
                                         en: "Already taken at {time}. Change only what is different, then save.")
        static let dayOffWeekend = LocalizedText(ar: "انتبه: يوم {date} ليس يوم دراسة (عطلة نهاية الأسبوع).",
                                                 en: "Careful: {date} is not a school day (a weekend day).")
        static let dayOffClosure = LocalizedText(ar: "انتبه: يوم {date} عطلة في تقويم المدرسة: {name}.",
                                                 en: "Careful: {date} is a day off in the school calendar: {name}.")
        static let dayOffOutsideTerm = LocalizedText(ar: "انتبه: يوم {date} خارج الفصول الدراسية.",
                                                     en: "Careful: {date} falls outside the school's terms.")
        static let dayOffOther = LocalizedText(ar: "انتبه: يوم {date} ليس يوم دراسة في تقويم المدرسة.",
                                               en: "Careful: {date} is not a school day in the school calendar.")
        static let dayOffConfirm = LocalizedText(ar: "أعرف أنه ليس يوم دراسة، وأريد أخذ التحضير على أي حال",
                                                 en: "I know it is not a school day: take the register anyway")
        static let dayOffUnconfirmed = LocalizedText(ar: "لم يُحفظ شيء: اليوم ليس يوم دراسة. أكّد أنك تريد أخذ التحضير على أي حال ثم احفظ.",
                                                     en: "Nothing was saved: this is not a school day. Confirm that you want to take the register anyway, then save.")
        static let save = LocalizedText(ar: "حفظ التحضير", en: "Save the register")
        static let saved = LocalizedText(ar: "تم الحفظ: {present} حاضر، {absent} غائب، {late} متأخر.",
                                         en: "Saved: {present} present, {absent} absent, {late} late.")
        static let exceptions = LocalizedText(ar: "الاستثناءات", en: "Exceptions")
        static let otherClass = LocalizedText(ar: "فصل آخر", en: "Another class")
        static let pick = LocalizedText(ar: "اختر فصلًا لتحضيره اليوم.", en: "Choose a class to take today's register.")
        static let classCode = LocalizedText(ar: "الفصل", en: "Class")
        static let open = LocalizedText(ar: "فتح", en: "Open")
        static let students = LocalizedText(ar: "{count} طالبًا", en: "{count} students")
        static let todayTitle = LocalizedText(ar: "حضور اليوم", en: "Attendance today")
        static let todayChart = LocalizedText(ar: "سجلات الحضور ليوم {date}", en: "Attendance records on {date}")
        static let nothingToday = LocalizedText(ar: "لم يُسجَّل حضور اليوم بعد.", en: "No attendance recorded today yet.")
        static let rate = LocalizedText(ar: "نسبة الحضور", en: "Attendance rate")
        static let rateTitle = LocalizedText(ar: "الحضور", en: "Attendance")
        static let nothingYet = LocalizedText(ar: "لا سجلات حضور بعد.", en: "No attendance records yet.")
        static let absences = LocalizedText(ar: "الغيابات: {count}", en: "Absences: {count}")

        static func status(_ status: AttendanceStatus) -> LocalizedText {
            switch status {
            case .present: LocalizedText(ar: "حاضر", en: "Present")
            case .absent: LocalizedText(ar: "غائب", en: "Absent")
            case .late: LocalizedText(ar: "متأخر", en: "Late")
            case .excused: LocalizedText(ar: "معذور", en: "Excused")
            case .sick: LocalizedText(ar: "مريض", en: "Sick")
            case .holiday: LocalizedText(ar: "عطلة", en: "Holiday")
            }
        }

        static func band(_ band: RiskBand) -> LocalizedText {
            switch band {
            case .satisfactory: LocalizedText(ar: "منتظم", en: "Satisfactory")
            case .atRisk: LocalizedText(ar: "معرّض للخطر", en: "At risk")
            case .moderatelyChronic: LocalizedText(ar: "غياب مزمن متوسط", en: "Moderately chronic")
            case .severelyChronic: LocalizedText(ar: "غياب مزمن شديد", en: "Severely chronic")
            }
        }
    }

    enum Templates {
        static let sheet = ConsoleTemplate("""
            <p class="lead">{{when}}</p>
            {{#saved}}<p class="notice" role="status" id="saved" tabindex="-1" data-focus-on-load>{{saved}}</p>{{/saved}}
            {{#problem}}<p class="problem" role="alert" id="register-problem" tabindex="-1" data-focus-on-load>{{problem}}</p>{{/problem}}
            <form method="post" action="{{action}}" id="register-form" data-submit-once>
            <input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="class" value="{{class}}"><input type="hidden" name="period" value="{{period}}">
            {{#dayOff}}<div class="panel day-off" id="day-off"><p class="warning" role="note"><strong>{{dayOff}}</strong></p>
            <p class="confirm"><input type="checkbox" id="day-off-confirm" name="day-off" value="confirmed" required><label for="day-off-confirm">{{dayOffConfirm}}</label></p></div>{{/dayOff}}
            <p class="hint" id="register-hint">{{hint}}</p>
            <ol class="register">
            {{#lines}}<li{{#exception}} class="exception"{{/exception}}><span class="pupil"><span dir="ltr">{{position}}.</span> <bdi>{{name}}</bdi> <code dir="ltr">{{gr}}</code></span>
            <fieldset role="radiogroup"><legend>{{name}}</legend>{{#choices}}<label class="choice" for="{{id}}"><input type="radio" id="{{id}}" name="status.{{gr}}" value="{{value}}"{{#checked}} checked{{/checked}}><span>{{label}}</span></label>{{/choices}}</fieldset></li>{{/lines}}
            </ol>
            <div class="sticky"><button type="submit" class="primary">{{save}}</button>
            <span>{{exceptionsLabel}}: <output id="exceptions-count" for="register-form">{{exceptions}}</output></span>
            <a href="{{back}}">{{backText}}</a></div>
            </form>
            """)
        static let classes = ConsoleTemplate("""
            <p class="lead">{{intro}}</p>
            <ul class="lessons">{{#classes}}<li><a href="{{href}}">{{text}}</a> <span class="hint">{{count}}</span></li>{{/classes}}</ul>
            {{#picks}}<form method="get" action="{{action}}" class="panel actions">
            <p><label for="class">{{codeLabel}}</label><select id="class" name="class" required>{{#pick}}<option value="{{value}}">{{label}}</option>{{/pick}}</select></p>
            <button type="submit">{{open}}</button></form>{{/picks}}
            """)
        static let today = ConsoleTemplate("""
            <p class="big" dir="ltr">{{rate}}</p><p class="hint">{{rateLabel}}</p>{{{chart}}}
            """)
        static let rate = ConsoleTemplate("""
            {{#children}}<div class="child"><p><strong>{{name}}</strong></p><p class="big band-{{band}}" dir="ltr">{{rate}}</p>
            <p class="band-{{band}}"><strong>{{bandText}}</strong> · {{absences}}</p></div>{{/children}}
            """)
    }
}
