import Core

extension TimetableBuilderConsole {
    enum Words {
        static let title = LocalizedText(ar: "بناء الجدول", en: "Timetable builder")
        static let classTitle = LocalizedText(ar: "جدول الفصل {class}", en: "Timetable of {class}")
        static let intro = LocalizedText(ar: "اختر فصلًا لترى أسبوعه وتضع حصصه.", en: "Choose a class to see its week and place its lessons.")
        static let gridIntro = LocalizedText(
            ar: "الحصص نزولًا وأيام الدراسة عرضًا، وأسابيع الدورة جنبًا إلى جنب في كل يوم. اختر «ضع حصة» في خانة فارغة، أو أزل حصة.",
            en: "Periods down, school days across, and the weeks of the cycle side by side in each day. Choose “Place a lesson” in an empty cell, or remove one.")
        static let schoolClass = LocalizedText(ar: "الفصل", en: "Class")
        static let open = LocalizedText(ar: "افتح جدوله", en: "Open its timetable")
        static let noClasses = LocalizedText(ar: "لا فصول في المدرسة بعد. أضفها من صفحة إعداد المدرسة.", en: "The school has no classes yet. Add them on the school set-up page.")
        static let otherClass = LocalizedText(ar: "فصل آخر", en: "Another class")
        static let periodsLink = LocalizedText(ar: "حصص اليوم الدراسي", en: "Periods of the school day")
        static let noPeriods = LocalizedText(ar: "لا حصص في اليوم الدراسي بعد. أضفها من صفحة حصص اليوم الدراسي أولًا.",
                                             en: "The school day has no periods yet. Add them on the periods page first.")
        static let period = LocalizedText(ar: "الحصة", en: "Period")
        static let breakTime = LocalizedText(ar: "استراحة", en: "Break")
        static let everyWeek = LocalizedText(ar: "كل أسبوع", en: "Every week")
        static let place = LocalizedText(ar: "ضع حصة", en: "Place a lesson")
        static let placeIn = LocalizedText(ar: "ضع حصة: {day}، {period}، {week}", en: "Place a lesson: {day}, {period}, {week}")
        static let remove = LocalizedText(ar: "أزل", en: "Remove")
        static let removeLabel = LocalizedText(ar: "أزل {subject}: {day}، {period}، {week}", en: "Remove {subject}: {day}, {period}, {week}")
        static let placeHeading = LocalizedText(ar: "حصة في {day}، {period} ({times})، {week}", en: "A lesson on {day}, {period} ({times}), {week}")
        static let teaching = LocalizedText(ar: "المادة ومعلمها", en: "Subject and teacher")
        static let busyWith = LocalizedText(ar: "مشغول مع {class} في هذا الوقت", en: "busy with {class} then")
        static let room = LocalizedText(ar: "القاعة", en: "Room")
        static let roomsBusy = LocalizedText(ar: "قاعات مشغولة في هذا الوقت: {rooms}", en: "Rooms in use then: {rooms}")
        static let everyWeekBox = LocalizedText(ar: "في كل أسابيع الدورة", en: "In every week of the cycle")
        static let placeSubmit = LocalizedText(ar: "ضع الحصة", en: "Place the lesson")
        static let cancel = LocalizedText(ar: "إلغاء", en: "Cancel")
        static let notPlaced = LocalizedText(ar: "لم توضع الحصة: صحّح الحقل المعلَّم أدناه.", en: "The lesson was not placed: correct the field marked below.")
        static let noTeaching = LocalizedText(ar: "لا أحد يدرّس هذا الفصل بعد. عيّن معلمي المواد من صفحة إعداد المدرسة.",
                                              en: "Nobody teaches this class yet. Assign its subject teachers on the school set-up page.")
        static let placed = LocalizedText(ar: "وُضعت الحصة.", en: "The lesson was placed.")
        static let removed = LocalizedText(ar: "أُزيلت الحصة.", en: "The lesson was removed.")
    }

    enum Templates {
        static let picker = ConsoleTemplate("""
            <p class="lead">{{intro}}</p>
            {{#none}}<p>{{none}}</p>{{/none}}
            {{^none}}<form method="get" action="{{action}}" class="panel actions" id="builder-pick"><p><label for="builder-class">{{classLabel}}</label>
            <select id="builder-class" name="class">{{#classes}}<option value="{{value}}">{{label}}</option>{{/classes}}</select></p>
            <button type="submit" class="primary">{{show}}</button></form>{{/none}}
            """)

        static let grid = ConsoleTemplate("""
            {{#notice}}<p class="notice" role="status" id="builder-notice">{{notice}}</p>{{/notice}}
            {{#problem}}<p class="problem" role="alert" id="builder-problem">{{problem}}</p>{{/problem}}
            <p class="lead">{{intro}}</p>
            <p class="actions"><a class="button" href="{{other}}">{{otherText}}</a> <a class="button" href="{{periods}}">{{periodsText}}</a></p>
            {{{form}}}
            {{#empty}}<p>{{empty}}</p>{{/empty}}
            {{^empty}}<div class="table-wrap" tabindex="0" role="region" aria-label="{{gridLabel}}"><table id="builder-grid"><thead><tr><th scope="col">{{periodLabel}}</th>{{#days}}<th scope="col">{{name}}</th>{{/days}}</tr></thead><tbody>
            {{#rows}}<tr><th scope="row"><bdi>{{name}}</bdi> <span class="hint"><bdi dir="ltr">{{times}}</bdi></span></th>
            {{#isBreak}}<td colspan="{{span}}" class="hint">{{breakText}}</td>{{/isBreak}}
            {{^isBreak}}{{#cells}}<td>{{#entries}}<p class="slot">{{#showWeek}}<span class="hint">{{week}}:</span> {{/showWeek}}{{#lesson}}<bdi>{{subject}}</bdi> · <bdi>{{teacher}}</bdi> · <bdi dir="ltr">{{room}}</bdi>
            <form method="post" action="{{other}}" class="inline"><input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="do" value="remove"><input type="hidden" name="class" value="{{classCode}}"><input type="hidden" name="slot" value="{{slot}}"><button type="submit" aria-label="{{removeLabel}}">{{removeText}}</button></form>{{/lesson}}{{^lesson}}<a class="button" href="{{place}}" aria-label="{{placeLabel}}">{{placeText}}</a>{{/lesson}}</p>{{/entries}}</td>{{/cells}}{{/isBreak}}</tr>{{/rows}}
            </tbody></table></div>{{/empty}}
            """)

        static let place = ConsoleTemplate("""
            <form method="post" action="{{action}}" class="panel" id="place" data-submit-once aria-labelledby="place-heading" novalidate>
            <h2 id="place-heading">{{heading}}</h2>
            <input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="class" value="{{class}}"><input type="hidden" name="day" value="{{day}}">
            <input type="hidden" name="period" value="{{period}}"><input type="hidden" name="week" value="{{week}}">
            {{#summary}}<p class="problem" role="alert" id="place-problem">{{summary}}</p>{{/summary}}
            {{#noTeaching}}<p>{{noTeaching}}</p>{{/noTeaching}}
            \(ConsoleFormField.markup)
            <p class="actions"><button type="submit" class="primary">{{submit}}</button> <a class="button" href="{{cancel}}">{{cancelText}}</a></p></form>
            """)
    }
}
