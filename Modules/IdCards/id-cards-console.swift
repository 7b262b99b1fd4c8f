import Core
import Foundation

extension IdCardsModule: ConsoleModule {
    /// One's own card, and for staff a page to check a scanned card.
    public var consolePages: [ConsolePage] { [IdCardsConsole.card, IdCardsConsole.check] }
}

/// The console runs the module's own actions, so the kernel checks who sees and checks what.
enum IdCardsConsole {
    /// The signed-in student's or staff member's card, as the app shows it. The signed code is
    /// the text the app draws as a QR code; it is shown here to copy, not drawn.
    static let card = ConsolePage("card", title: Words.title, permission: IdCardsPermissions.own) { console in
        let card = try await console.run(ShowIdCard.self, .init())
        let facts = Self.facts(name: "\(card.givenName) \(card.familyName)", role: card.role, number: card.idNumber, grade: card.grade,
                               section: card.section, validUntil: card.qrExpiresAt, console)
        return .page(title: console.say(Words.title), body: Templates.card.render(console.common.merging([
            "school": card.schoolName.text(in: console.language), "facts": facts, "payload": card.qrPayload,
            "codeHeading": console.say(Words.code), "codeHint": console.say(Words.codeHint),
        ]) { $1 }))
    }

    /// A form for a card reader: the reader types the card's code into the field and presses
    /// Enter, and the page answers whose card it is, or that it is not a valid card of this school.
    static let check = ConsolePage("check", title: Words.checkTitle, permission: IdCardsPermissions.verify) { console in
        var values: [String: Any] = [
            "action": console.pagePath("id-cards", "check"), "intro": console.say(Words.checkIntro),
            "fieldLabel": console.say(Words.field), "submit": console.say(Words.checkButton),
        ]
        if console.isPost {
            do {
                let holder = try await console.run(VerifyIdCard.self, .init(payload: console.form.value("payload") ?? ""))
                values["valid"] = ["heading": console.say(Words.valid), "facts": Self.facts(
                    name: holder.name, role: holder.role, number: holder.idNumber, grade: nil, section: holder.section, validUntil: holder.validUntil, console)]
            } catch let error where !(error is CancellationError) {
                values["error"] = console.message(for: error)
            }
        }
        return .page(title: console.say(Words.checkTitle), body: Templates.check.render(console.common.merging(values) { $1 }))
    }

    /// What a card says, as label and value pairs; a GR number is code, the rest text.
    static func facts(name: String, role: Role, number: String?, grade: LocalizedText?, section: LocalizedText?, validUntil: Date,
                      _ console: ConsoleRequest) -> [[String: Any]] {
        var facts: [[String: Any]] = [
            ["label": console.say(Words.name), "value": name],
            ["label": console.say(Words.role), "value": console.localizer("console.role.\(role.rawValue)")],
        ]
        if let number { facts.append(["label": console.say(Words.number), "value": number, "code": true]) }
        if let grade { facts.append(["label": console.say(Words.grade), "value": grade.text(in: console.language)]) }
        if let section { facts.append(["label": console.say(Words.section), "value": section.text(in: console.language)]) }
        facts.append(["label": console.say(Words.validUntil), "value": console.schoolTime(validUntil)])
        return facts
    }

    enum Words {
        static let title = LocalizedText(ar: "بطاقتي المدرسية", en: "My ID card")
        static let name = LocalizedText(ar: "الاسم", en: "Name")
        static let role = LocalizedText(ar: "الصفة", en: "Role")
        static let number = LocalizedText(ar: "رقم القيد", en: "GR number")
        static let grade = LocalizedText(ar: "المرحلة", en: "Year level")
        static let section = LocalizedText(ar: "الفصل", en: "Class")
        static let validUntil = LocalizedText(ar: "صالحة حتى", en: "Valid until")
        static let code = LocalizedText(ar: "رمز البطاقة", en: "The card's code")
        static let codeHint = LocalizedText(ar: "يعرض تطبيق المدرسة هذا الرمز رمزَ QR يمسحه الموظفون عند الباب. لا تشاركه: من يحمله يُعرَّف بك حتى تاريخ انتهائه.",
                                            en: "The school's app shows this code as a QR code that staff scan at the door. Do not share it: whoever holds it is taken for you until it expires.")
        static let checkTitle = LocalizedText(ar: "التحقق من بطاقة", en: "Check an ID card")
        static let checkIntro = LocalizedText(ar: "امسح رمز البطاقة بالقارئ أو الصقه هنا ثم اضغط «تحقق».",
                                              en: "Scan the card's code with the reader, or paste it here, then press Check.")
        static let field = LocalizedText(ar: "رمز البطاقة", en: "Card code")
        static let checkButton = LocalizedText(ar: "تحقق", en: "Check")
        static let valid = LocalizedText(ar: "بطاقة صالحة من هذه المدرسة", en: "A valid card of this school")
    }

    enum Templates {
        static let card = ConsoleTemplate("""
            <section class="panel id-card" aria-labelledby="card-school"><h2 id="card-school"><bdi>{{school}}</bdi></h2>
            <dl>{{#facts}}<dt>{{label}}</dt><dd>{{#code}}<code dir="ltr">{{value}}</code>{{/code}}{{^code}}<bdi>{{value}}</bdi>{{/code}}</dd>{{/facts}}</dl></section>
            <details class="panel"><summary>{{codeHeading}}</summary><p class="hint" id="card-code-hint">{{codeHint}}</p>
            <p><textarea readonly rows="4" dir="ltr" aria-label="{{codeHeading}}" aria-describedby="card-code-hint" id="card-code">{{payload}}</textarea></p></details>
            """)

        static let check = ConsoleTemplate("""
            {{#error}}<p class="problem" role="alert" id="card-problem">{{error}}</p>{{/error}}
            {{#valid}}<section class="panel" role="status" aria-labelledby="card-valid"><h2 id="card-valid">{{heading}}</h2>
            <dl>{{#facts}}<dt>{{label}}</dt><dd>{{#code}}<code dir="ltr">{{value}}</code>{{/code}}{{^code}}<bdi>{{value}}</bdi>{{/code}}</dd>{{/facts}}</dl></section>{{/valid}}
            <form method="post" action="{{action}}" class="panel"><input type="hidden" name="_csrf" value="{{csrf}}">
            <p id="card-check-intro">{{intro}}</p>
            <p><label for="card-payload">{{fieldLabel}}</label><input id="card-payload" name="payload" dir="ltr" autocomplete="off" maxlength="2000" required autofocus
            aria-describedby="card-check-intro"></p>
            <button type="submit">{{submit}}</button></form>
            """)
    }
}
