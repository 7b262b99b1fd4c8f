import Core
import Foundation

extension EventsModule: ConsoleModule {
    /// The calendar: what is coming for this person, registration, their feed address, and for
    /// those who add events a form.
    public var consolePages: [ConsolePage] { [EventsConsole.calendar] }
}

/// The console runs the module's own actions, so the kernel checks who sees and adds what.
enum EventsConsole {
    static let calendar = ConsolePage("calendar", title: Words.title, permission: EventsPermissions.read) { console in
        guard console.isPost else { return try await page(console, notice: notice(console.query["done"], console)) }
        let form = console.form
        do {
            if let id = form.value("register") {
                _ = try await console.run(RegisterForEvent.self, .init(id: id))
                return .redirect(console.pagePath("events", "calendar", query: [("done", "registered")]))
            }
            if let id = form.value("leave") {
                _ = try await console.run(LeaveEvent.self, .init(id: id))
                return .redirect(console.pagePath("events", "calendar", query: [("done", "left")]))
            }
            if let id = form.value("cancel") {
                _ = try await console.run(CancelEvent.self, .init(id: id))
                return .redirect(console.pagePath("events", "calendar", query: [("done", "cancelled")]))
            }
            if form.value("feed") != nil {
                let feed = try await console.run(MakeCalendarFeed.self, .init())
                return try await page(console, notice: console.say(Words.feedMade), feedPath: feed.path)
            }
            let classCode = (form.value("class") ?? "").trimmingCharacters(in: .whitespaces)
            _ = try await console.run(CreateEvent.self, .init(
                title: form.value("title") ?? "", description: form.value("description") ?? "", type: EventType(rawValue: form.value("type") ?? "") ?? .other,
                startsOn: form.value("date") ?? "", startTime: nonEmpty(form.value("time")), endTime: nonEmpty(form.value("end_time")),
                location: form.value("location") ?? "", classCode: classCode.isEmpty ? nil : classCode,
                registrationRequired: form.value("registration") == "on"))
            return .redirect(console.pagePath("events", "calendar", query: [("done", "added")]))
        } catch let error where !(error is CancellationError) {
            return try await page(console, error: console.message(for: error), typed: form)
        }
    }

    static func nonEmpty(_ text: String?) -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        return text
    }

    static func notice(_ done: String?, _ console: ConsoleRequest) -> String {
        switch done {
        case "registered": console.say(Words.registered)
        case "left": console.say(Words.left)
        case "cancelled": console.say(Words.cancelled)
        case "added": console.say(Words.added)
        default: ""
        }
    }

    /// The days (a range kept on one line) and the hours, each isolated so Arabic text never turns them around.
    static func when(_ entry: CalendarEntry) -> String {
        let days = entry.endsOn == entry.startsOn ? ConsoleDates.isolated(entry.startsOn) : ConsoleDates.range(entry.startsOn, entry.endsOn)
        guard let start = entry.startTime else { return days }
        return days + " " + ConsoleDates.isolated(start + (entry.endTime.map { "–" + $0 } ?? ""))
    }

    static func page(_ console: ConsoleRequest, notice: String = "", error: String = "", feedPath: String = "",
                     typed: ConsoleForm = ConsoleForm(pairs: [])) async throws -> ConsoleResponse {
        let entries = try await console.run(UpcomingCalendar.self, .init(upcomingOnly: true))
        let manages = console.may(EventsPermissions.manage)
        let rows: [[String: Any]] = entries.prefix(100).map { entry in
            var state = ""
            if entry.cancelled { state = console.say(Words.isCancelled) } else if entry.myRegistration == .registered { state = console.say(Words.youAreRegistered) }
            else if entry.myRegistration == .waitlisted { state = console.say(Words.youAreWaiting) }
            let open = entry.isEvent && !entry.cancelled
            return ["id": entry.id, "title": entry.title, "when": when(entry), "place": entry.location,
                    "kind": console.say(Words.type(entry.type)), "for": entry.classCode ?? console.say(Words.wholeSchool), "state": state,
                    "description": entry.description,
                    "canRegister": open && entry.registrationRequired && entry.myRegistration == nil, "canLeave": open && entry.myRegistration != nil,
                    "canCancel": open && manages && (entry.organizedByMe || [.admin, .developer].contains(console.principal.role))]
        }
        return .page(title: console.say(Words.title), body: Templates.calendar.render(console.common.merging([
            "notice": notice, "error": error, "entries": rows, "none": rows.isEmpty ? console.say(Words.none) : "",
            "action": console.pagePath("events", "calendar"), "register": console.say(Words.register), "leave": console.say(Words.leave),
            "cancel": console.say(Words.cancel), "feedIntro": console.say(Words.feedIntro), "feedButton": console.say(Words.feedButton),
            "feedPath": feedPath, "manages": manages, "newHeading": console.say(Words.new),
            "titleLabel": console.say(Words.titleLabel), "title": typed.value("title") ?? "", "dateLabel": console.say(Words.date), "date": typed.value("date") ?? "",
            "timeLabel": console.say(Words.time), "time": typed.value("time") ?? "", "endTimeLabel": console.say(Words.endTime), "endTime": typed.value("end_time") ?? "",
            "locationLabel": console.say(Words.location), "location": typed.value("location") ?? "",
            "classLabel": console.say(Words.classLabel), "classHint": console.say(Words.classHint), "classCode": typed.value("class") ?? "",
            "typeLabel": console.say(Words.typeLabel), "types": EventType.allCases.filter { $0 != .holiday && $0 != .exam }.map {
                ["value": $0.rawValue, "label": console.say(Words.type($0)), "selected": $0.rawValue == (typed.value("type") ?? "other")]
            },
            "registrationLabel": console.say(Words.registrationLabel), "add": console.say(Words.add),
        ]) { $1 }))
    }

    enum Words {
        static let title = LocalizedText(ar: "التقويم", en: "Calendar")
        static let none = LocalizedText(ar: "لا شيء في التقويم قريبًا.", en: "Nothing coming up on the calendar.")
        static let wholeSchool = LocalizedText(ar: "المدرسة كلها", en: "Whole school")
        static let register = LocalizedText(ar: "سجّلني", en: "Register")
        static let leave = LocalizedText(ar: "ألغِ تسجيلي", en: "Leave")
        static let cancel = LocalizedText(ar: "إلغاء الفعالية", en: "Cancel the event")
        static let registered = LocalizedText(ar: "سُجّلت.", en: "You are registered.")
        static let left = LocalizedText(ar: "أُلغي تسجيلك.", en: "You are off the list.")
        static let cancelled = LocalizedText(ar: "أُلغيت الفعالية.", en: "The event was cancelled.")
        static let added = LocalizedText(ar: "أُضيفت الفعالية إلى التقويم.", en: "The event is on the calendar.")
        static let isCancelled = LocalizedText(ar: "ملغاة", en: "Cancelled")
        static let youAreRegistered = LocalizedText(ar: "أنت مسجّل", en: "You are registered")
        static let youAreWaiting = LocalizedText(ar: "أنت في قائمة الانتظار", en: "You are on the waiting list")
        static let feedIntro = LocalizedText(ar: "أضف تقويمك إلى هاتفك: انسخ الرابط وأضفه كاشتراك في تطبيق التقويم. من يملك الرابط يرى تقويمك، فاطلب رابطًا جديدًا إن شاركته.",
                                             en: "Add your calendar to your phone: copy the link and subscribe to it in your calendar app. Whoever has the link sees your calendar: ask for a new one if you shared it.")
        static let feedButton = LocalizedText(ar: "رابط تقويمي", en: "My calendar link")
        static let feedMade = LocalizedText(ar: "هذا رابط تقويمك الجديد؛ الرابط السابق توقف عن العمل.", en: "Here is your new calendar link; the previous one no longer works.")
        static let new = LocalizedText(ar: "فعالية جديدة", en: "New event")
        static let titleLabel = LocalizedText(ar: "العنوان", en: "Title")
        static let date = LocalizedText(ar: "اليوم", en: "Day")
        static let time = LocalizedText(ar: "من (اختياري)", en: "From (optional)")
        static let endTime = LocalizedText(ar: "إلى (اختياري)", en: "Until (optional)")
        static let location = LocalizedText(ar: "المكان", en: "Place")
        static let classLabel = LocalizedText(ar: "الصف (اختياري)", en: "Class (optional)")
        static let classHint = LocalizedText(ar: "رمز الصف مثل 7A؛ اتركه فارغًا للمدرسة كلها.", en: "A class code such as 7A; leave empty for the whole school.")
        static let typeLabel = LocalizedText(ar: "النوع", en: "Kind")
        static let registrationLabel = LocalizedText(ar: "يتطلب التسجيل", en: "Registration needed")
        static let add = LocalizedText(ar: "إضافة", en: "Add")

        static func type(_ type: EventType) -> LocalizedText {
            switch type {
            case .academic: LocalizedText(ar: "أكاديمية", en: "Academic")
            case .sports: LocalizedText(ar: "رياضية", en: "Sports")
            case .cultural: LocalizedText(ar: "ثقافية", en: "Cultural")
            case .meeting: LocalizedText(ar: "اجتماع", en: "Meeting")
            case .trip: LocalizedText(ar: "رحلة", en: "Trip")
            case .holiday: LocalizedText(ar: "عطلة", en: "Holiday")
            case .exam: LocalizedText(ar: "اختبار", en: "Exam")
            case .other: LocalizedText(ar: "أخرى", en: "Other")
            }
        }
    }

    enum Templates {
        static let calendar = ConsoleTemplate("""
            {{#notice}}<p class="notice" role="status" id="saved">{{notice}}</p>{{/notice}}
            {{#error}}<p class="problem" role="alert" id="events-problem">{{error}}</p>{{/error}}
            {{#none}}<p>{{none}}</p>{{/none}}
            <ul class="calendar">{{#entries}}<li><h2 id="e-{{id}}"><bdi>{{title}}</bdi></h2>
            <p class="hint">{{when}}{{#place}} · <bdi>{{place}}</bdi>{{/place}} · {{kind}} · <bdi>{{for}}</bdi>{{#state}} · <strong>{{state}}</strong>{{/state}}</p>
            {{#description}}<p><bdi>{{description}}</bdi></p>{{/description}}
            {{#canRegister}}<form method="post" action="{{action}}" class="inline"><input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="register" value="{{id}}"><button type="submit" aria-describedby="e-{{id}}">{{register}}</button></form>{{/canRegister}}
            {{#canLeave}}<form method="post" action="{{action}}" class="inline"><input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="leave" value="{{id}}"><button type="submit" aria-describedby="e-{{id}}">{{leave}}</button></form>{{/canLeave}}
            {{#canCancel}}<form method="post" action="{{action}}" class="inline"><input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="cancel" value="{{id}}"><button type="submit" aria-describedby="e-{{id}}">{{cancel}}</button></form>{{/canCancel}}
            </li>{{/entries}}</ul>
            <section class="panel" id="events-feed"><p>{{feedIntro}}</p>
            {{#feedPath}}<p><a href="{{feedPath}}" dir="ltr" id="events-feed-link">{{feedPath}}</a></p>{{/feedPath}}
            <form method="post" action="{{action}}"><input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="feed" value="1"><button type="submit">{{feedButton}}</button></form></section>
            {{#manages}}<form method="post" action="{{action}}" class="panel" id="events-new"><input type="hidden" name="_csrf" value="{{csrf}}">
            <h2>{{newHeading}}</h2>
            <p><label for="event-title">{{titleLabel}}</label><input id="event-title" name="title" value="{{title}}" maxlength="200" required></p>
            <p><label for="event-date">{{dateLabel}}</label><input id="event-date" name="date" type="date" value="{{date}}" dir="ltr" required></p>
            <p><label for="event-time">{{timeLabel}}</label><input id="event-time" name="time" type="time" value="{{time}}" dir="ltr"></p>
            <p><label for="event-end-time">{{endTimeLabel}}</label><input id="event-end-time" name="end_time" type="time" value="{{endTime}}" dir="ltr"></p>
            <p><label for="event-location">{{locationLabel}}</label><input id="event-location" name="location" value="{{location}}" maxlength="200"></p>
            <p><label for="event-type">{{typeLabel}}</label><select id="event-type" name="type">{{#types}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/types}}</select></p>
            <p><label for="event-class">{{classLabel}}</label><input id="event-class" name="class" value="{{classCode}}" dir="ltr" maxlength="40" aria-describedby="event-class-hint">
            <span class="hint" id="event-class-hint">{{classHint}}</span></p>
            <p><input id="event-registration" name="registration" type="checkbox"><label for="event-registration">{{registrationLabel}}</label></p>
            <button type="submit">{{add}}</button></form>{{/manages}}
            """)
    }
}
