import Core

/// The excuse pages' words, in both languages.
enum ExcuseWords {
    static let title = LocalizedText(ar: "أعذار الغياب", en: "Absence excuses")
    static let lead = LocalizedText(ar: "غيابات {name} وتأخره التي يمكنك شرحها، والأعذار التي أرسلتها.",
                                    en: "{name}'s absences and late arrivals you can explain, and the excuses you sent.")
    static let noChildren = LocalizedText(ar: "لا يوجد أبناء مرتبطون بحسابك.", en: "No children are linked to your account.")
    static let whichChild = LocalizedText(ar: "أي الأبناء؟", en: "Which child?")
    static let absence = LocalizedText(ar: "{date} · {period} · {status}", en: "{date} · {period} · {status}")
    static let absenceLabel = LocalizedText(ar: "الغياب الذي تشرحه", en: "The absence you are explaining")
    static let noAbsences = LocalizedText(ar: "لا غياب أو تأخر لـ{name} ينتظر عذرًا.", en: "{name} has no absence or late arrival waiting for an excuse.")
    static let reasonLabel = LocalizedText(ar: "السبب", en: "Reason")
    static let pickReasonOption = LocalizedText(ar: "اختر السبب", en: "Choose a reason")
    static let noteLabel = LocalizedText(ar: "ملاحظة", en: "Note")
    static let noteHint = LocalizedText(ar: "اكتب ما حدث باختصار، حتى ٢٠٠٠ حرف.", en: "Say briefly what happened, up to 2,000 characters.")
    static let send = LocalizedText(ar: "إرسال العذر", en: "Send the excuse")
    static let sentTitle = LocalizedText(ar: "الأعذار المرسلة", en: "Excuses sent")
    static let noneSent = LocalizedText(ar: "لم ترسل أي عذر بعد.", en: "You have not sent any excuse yet.")
    static let reviewNote = LocalizedText(ar: "رد المدرسة", en: "The school's reply")
    static let sentNotice = LocalizedText(ar: "أُرسل العذر، وهو بانتظار مراجعة المدرسة.", en: "The excuse was sent and is waiting for the school's review.")
    static let notSent = LocalizedText(ar: "لم يُرسل العذر. صحّح ما هو مبيَّن ثم أرسل.", en: "The excuse was not sent. Correct what is marked, then send.")
    static let pickAbsence = LocalizedText(ar: "اختر الغياب الذي تشرحه.", en: "Choose the absence you are explaining.")
    static let pickReason = LocalizedText(ar: "اختر سببًا من القائمة.", en: "Choose a reason from the list.")

    static let queueTitle = LocalizedText(ar: "أعذار بانتظار القرار", en: "Excuses to review")
    static let queueLead = LocalizedText(ar: "أعذار بانتظار قرارك: {count}.", en: "Excuses waiting for your decision: {count}.")
    static let queueEmpty = LocalizedText(ar: "لا أعذار بانتظار القرار.", en: "No excuses are waiting for a decision.")
    static let decision = LocalizedText(ar: "القرار", en: "Decision")
    static let pickDecisionOption = LocalizedText(ar: "اختر القرار", en: "Choose a decision")
    static let pickAbsenceOption = LocalizedText(ar: "اختر الغياب", en: "Choose the absence")
    static let approve = LocalizedText(ar: "قبول (يصبح الغياب بعذر)", en: "Approve (the absence becomes excused)")
    static let reject = LocalizedText(ar: "رفض (يبقى الغياب)", en: "Reject (the absence stays)")
    static let reviewReason = LocalizedText(ar: "السبب لولي الأمر (اختياري)", en: "Reason for the guardian (optional)")
    static let decide = LocalizedText(ar: "حفظ القرار", en: "Save the decision")
    static let pickDecision = LocalizedText(ar: "لم يُحفظ شيء: اختر القبول أو الرفض.", en: "Nothing was saved: choose approve or reject.")
    static let approved = LocalizedText(ar: "قُبل عذر {name} ليوم {date}، وأصبح الغياب بعذر.",
                                        en: "Approved: {name}'s absence on {date} is now excused.")
    static let rejected = LocalizedText(ar: "رُفض عذر {name} ليوم {date}، وبقي الغياب كما هو.",
                                        en: "Rejected: {name}'s absence on {date} stays as it was.")

    static func reason(_ reason: ExcuseReason) -> LocalizedText {
        switch reason {
        case .medical: LocalizedText(ar: "مرض أو موعد طبي", en: "Illness or a medical appointment")
        case .familyEmergency: LocalizedText(ar: "ظرف عائلي طارئ", en: "Family emergency")
        case .religious: LocalizedText(ar: "مناسبة دينية", en: "Religious observance")
        case .schoolActivity: LocalizedText(ar: "نشاط مدرسي", en: "School activity")
        case .transportation: LocalizedText(ar: "مشكلة في المواصلات", en: "Transport problem")
        case .weather: LocalizedText(ar: "الطقس", en: "Weather")
        case .other: LocalizedText(ar: "سبب آخر", en: "Another reason")
        }
    }

    static func state(_ status: ReviewStatus) -> LocalizedText {
        switch status {
        case .pending: LocalizedText(ar: "بانتظار المراجعة", en: "Waiting for review")
        case .approved: LocalizedText(ar: "مقبول", en: "Approved")
        case .rejected: LocalizedText(ar: "مرفوض", en: "Rejected")
        }
    }
}

/// The excuse pages' markup: lists and stacked fields, so nothing is wider than a phone.
enum ExcuseTemplates {
    static let guardian = ConsoleTemplate("""
        {{#picker}}<nav aria-label="{{childrenLabel}}"><ul class="actions">{{/picker}}{{#children}}<li><a class="button" href="{{href}}"{{#current}} aria-current="page"{{/current}}><bdi>{{name}}</bdi></a></li>{{/children}}{{#picker}}</ul></nav>{{/picker}}
        <p class="lead">{{lead}}</p>
        {{#sent}}<p class="notice" role="status" id="sent" tabindex="-1" data-focus-on-load>{{sent}}</p>{{/sent}}
        {{#problem}}<p class="problem" role="alert" id="excuse-problem" tabindex="-1" data-focus-on-load>{{problem}}</p>{{/problem}}
        {{#hasAbsences}}<form method="post" action="{{action}}" class="panel narrow" id="excuse-form" data-submit-once>
        <input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="child" value="{{child}}">
        <div class="field{{#recordProblem}} invalid{{/recordProblem}}"><label for="record">{{absenceLabel}}</label>
        <select id="record" name="record" required{{#recordProblem}} aria-invalid="true" aria-describedby="record-problem"{{/recordProblem}}><option value="">{{pickAbsence}}</option>{{#absences}}<option value="{{value}}"{{#checked}} selected{{/checked}}>{{text}}</option>{{/absences}}</select>
        {{#recordProblem}}<p class="problem" id="record-problem">{{recordProblem}}</p>{{/recordProblem}}</div>
        <div class="field{{#reasonProblem}} invalid{{/reasonProblem}}"><label for="reason">{{reasonLabel}}</label>
        <select id="reason" name="reason" required{{#reasonProblem}} aria-invalid="true" aria-describedby="reason-problem"{{/reasonProblem}}><option value="">{{pickReason}}</option>{{#reasons}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{text}}</option>{{/reasons}}</select>
        {{#reasonProblem}}<p class="problem" id="reason-problem">{{reasonProblem}}</p>{{/reasonProblem}}</div>
        <div class="field{{#noteProblem}} invalid{{/noteProblem}}"><label for="note">{{noteLabel}}</label>
        <textarea id="note" name="note" rows="4" maxlength="2000" required aria-describedby="note-hint{{#noteProblem}} note-problem{{/noteProblem}}"{{#noteProblem}} aria-invalid="true"{{/noteProblem}}>{{note}}</textarea>
        <p class="hint" id="note-hint">{{noteHint}}</p>
        {{#noteProblem}}<p class="problem" id="note-problem">{{noteProblem}}</p>{{/noteProblem}}</div>
        <button type="submit" class="primary">{{send}}</button>
        </form>{{/hasAbsences}}
        {{^absences}}<p class="hint" id="no-absences">{{noAbsences}}</p>{{/absences}}
        <h2>{{sentTitle}}</h2>
        <ul class="lessons" id="excuses-sent">{{#excuses}}<li class="excuse-{{state}}"><p><strong>{{stateText}}</strong> · <span dir="auto">{{when}}</span></p>
        <p>{{reason}}</p><p dir="auto">{{note}}</p>{{#reviewNote}}<p class="hint">{{reviewNoteLabel}}: <span dir="auto">{{reviewNote}}</span></p>{{/reviewNote}}</li>{{/excuses}}</ul>
        {{^excuses}}<p class="hint">{{noneSent}}</p>{{/excuses}}
        """)

    static let queue = ConsoleTemplate("""
        {{#notice}}<p class="notice" role="status" id="decided" tabindex="-1" data-focus-on-load>{{notice}}</p>{{/notice}}
        {{#problem}}<p class="problem" role="alert" id="review-problem" tabindex="-1" data-focus-on-load>{{problem}}</p>{{/problem}}
        {{#hasExcuses}}<p class="lead">{{lead}}</p>{{/hasExcuses}}
        <ul class="lessons" id="excuse-queue">{{#excuses}}<li><h2><bdi>{{name}}</bdi> <span class="hint" dir="ltr">{{class}}</span></h2>
        <p dir="auto">{{when}}</p><p>{{reason}}</p><p dir="auto">{{noteHeading}}: {{note}}</p>
        <form method="post" action="{{action}}" class="panel narrow" data-submit-once>
        <input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="excuse" value="{{id}}">
        <div class="field"><label for="decision-{{n}}">{{decision}}</label><select id="decision-{{n}}" name="decision" required><option value="">{{pickDecisionOption}}</option>
        <option value="approve">{{approve}}</option><option value="reject">{{reject}}</option></select></div>
        <div class="field"><label for="note-{{n}}">{{reasonLabel}}</label><input id="note-{{n}}" name="note" maxlength="500" value="{{kept}}"{{#problem}} aria-invalid="true" aria-describedby="problem-{{n}}"{{/problem}}>
        {{#problem}}<p class="problem" id="problem-{{n}}">{{problem}}</p>{{/problem}}</div>
        <button type="submit" class="primary">{{save}}</button></form></li>{{/excuses}}</ul>
        {{^excuses}}<p class="hint" id="queue-empty">{{empty}}</p>{{/excuses}}
        """)
}
