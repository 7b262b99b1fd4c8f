import Core
import Foundation

/// The school's OpenID Connect providers, for an administrator: what `hogwarts auth oidc
/// add|list|remove` does, through the same actions (`auth.add-openid-provider`,
/// `auth.remove-openid-provider`), so the checks, refusals and audit are the command's.
enum AuthConsoleProviders {
    static let page = ConsolePage("sign-in-providers", title: Words.title, permission: AuthPermissions.manageUsers) { console in
        guard console.isPost else { return try await list(console) }
        do {
            switch console.form.value("do") {
            case "add":
                func given(_ name: String) -> String? {
                    (console.form.value(name) ?? "").trimmingCharacters(in: .whitespaces).nilIfEmpty
                }
                _ = try await console.run(AddOpenIDProvider.self, .init(
                    issuer: given("issuer") ?? "", clientID: given("client") ?? "", clientSecretFile: given("secret"), domain: given("domain"),
                    nameAr: given("name-ar"), nameEn: given("name-en")))
            case "remove":
                _ = try await console.run(RemoveOpenIDProvider.self, .init(issuer: console.form.value("issuer") ?? ""))
            default:
                return try await list(console, error: console.say(Words.unknownChange))
            }
        } catch let error where !(error is CancellationError) {
            // A refusal (an address that is not https, a provider already there) is shown above the form, with what to do.
            return try await list(console, error: console.message(for: error))
        }
        return .redirect(console.pagePath("auth", "sign-in-providers", query: [("done", console.form.value("do") ?? "")]))
    }

    private static func list(_ console: ConsoleRequest, error: String = "") async throws -> ConsoleResponse {
        let providers = try await console.run(ListOpenIDProviders.self, .init())
        let done = console.query["done"].flatMap { $0 == "add" ? Words.added : $0 == "remove" ? Words.removed : nil }
        return .page(title: console.say(Words.title), body: Templates.page.render(console.common.merging([
            "intro": console.say(Words.intro), "error": error, "done": done.map { console.say($0) } ?? "",
            "providers": providers.map { provider in
                ["name": provider.name.text(in: console.language), "issuer": provider.issuer, "client": provider.clientID,
                 "domain": provider.domain.isEmpty ? console.say(Words.anyDomain) : provider.domain,
                 "remove": console.say(Words.remove, ["name": provider.name.text(in: console.language)])] as [String: Any]
            },
            "none": providers.isEmpty ? console.say(Words.none) : "", "action": console.pagePath("auth", "sign-in-providers"),
            "nameHeading": console.say(Words.name), "issuerHeading": console.say(Words.issuer), "clientHeading": console.say(Words.client),
            "domainHeading": console.say(Words.domain), "addHeading": console.say(Words.addHeading), "secretLabel": console.say(Words.secret),
            "secretHint": console.say(Words.secretHint), "domainHint": console.say(Words.domainHint), "nameArLabel": console.say(Words.nameAr),
            "nameEnLabel": console.say(Words.nameEn), "add": console.say(Words.add),
        ]) { $1 }))
    }

    enum Words {
        static let title = LocalizedText(ar: "مزوّدو الدخول", en: "Sign-in providers")
        static let intro = LocalizedText(ar: "حسابات المدرسة لدى Google أو Microsoft أو أي مزوّد OpenID Connect. يدخل بها من له حساب هنا بالبريد نفسه فقط؛ لا يُنشأ حساب جديد.",
                                         en: "The school's accounts at Google, Microsoft or any OpenID Connect provider. Only people with an account here under the same email can sign in with them; no account is created.")
        static let none = LocalizedText(ar: "لا مزوّد بعد: يدخل الجميع بالبريد وكلمة المرور.", en: "No provider yet: everyone signs in with email and password.")
        static let name = LocalizedText(ar: "الاسم", en: "Name")
        static let issuer = LocalizedText(ar: "عنوان المُصدِر", en: "Issuer address")
        static let client = LocalizedText(ar: "معرّف العميل", en: "Client ID")
        static let domain = LocalizedText(ar: "نطاق البريد", en: "Email domain")
        static let anyDomain = LocalizedText(ar: "أي نطاق", en: "Any domain")
        static let remove = LocalizedText(ar: "إزالة {name}", en: "Remove {name}")
        static let addHeading = LocalizedText(ar: "إضافة مزوّد", en: "Add a provider")
        static let secret = LocalizedText(ar: "ملف سرّ العميل (اختياري)", en: "Client secret file (optional)")
        static let secretHint = LocalizedText(ar: "مسار ملف على الخادم يقرؤه الخادم وحده؛ لا يُحفظ السرّ في قاعدة البيانات.",
                                              en: "The path of a file on the server, readable by the server only; the secret itself is never stored in the database.")
        static let domainHint = LocalizedText(ar: "مثل school.example.org: لا يدخل إلا من بريده في هذا النطاق.",
                                              en: "Such as school.example.org: only emails in this domain may sign in.")
        static let nameAr = LocalizedText(ar: "الاسم بالعربية", en: "Name in Arabic")
        static let nameEn = LocalizedText(ar: "الاسم بالإنجليزية", en: "Name in English")
        static let add = LocalizedText(ar: "إضافة", en: "Add")
        static let added = LocalizedText(ar: "أُضيف المزوّد. يظهر زرّه الآن في صفحة الدخول.", en: "Provider added. Its button is now on the sign-in page.")
        static let removed = LocalizedText(ar: "أُزيل المزوّد.", en: "Provider removed.")
        static let unknownChange = LocalizedText(ar: "هذا التغيير غير معروف. أعد تحميل الصفحة وحاول مجدداً.", en: "That change is not known. Reload the page and try again.")
    }

    enum Templates {
        static let page = ConsoleTemplate("""
            {{#done}}<p class="notice" role="status" id="saved">{{done}}</p>{{/done}}
            {{#error}}<p class="problem" role="alert">{{error}}</p>{{/error}}
            <p class="lead">{{intro}}</p>
            {{#none}}<p>{{none}}</p>{{/none}}
            {{^none}}<div class="table-wrap" tabindex="0"><table><thead><tr><th scope="col">{{nameHeading}}</th><th scope="col">{{issuerHeading}}</th>
            <th scope="col">{{clientHeading}}</th><th scope="col">{{domainHeading}}</th><th scope="col"></th></tr></thead><tbody>
            {{#providers}}<tr><td><bdi>{{name}}</bdi></td><td dir="ltr">{{issuer}}</td><td dir="ltr">{{client}}</td><td dir="ltr">{{domain}}</td>
            <td><form method="post" action="{{action}}"><input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="do" value="remove">
            <input type="hidden" name="issuer" value="{{issuer}}"><button type="submit" class="danger">{{remove}}</button></form></td></tr>{{/providers}}
            </tbody></table></div>{{/none}}
            <form method="post" action="{{action}}" class="panel narrow"><h2>{{addHeading}}</h2>
            <input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="do" value="add">
            <p class="field"><label for="issuer">{{issuerHeading}}</label><input id="issuer" name="issuer" type="url" required dir="ltr" placeholder="https://accounts.google.com"></p>
            <p class="field"><label for="client">{{clientHeading}}</label><input id="client" name="client" required dir="ltr"></p>
            <p class="field"><label for="secret">{{secretLabel}}</label><input id="secret" name="secret" dir="ltr" aria-describedby="secret-hint">
            <span class="hint" id="secret-hint">{{secretHint}}</span></p>
            <p class="field"><label for="domain">{{domainHeading}}</label><input id="domain" name="domain" dir="ltr" aria-describedby="domain-hint">
            <span class="hint" id="domain-hint">{{domainHint}}</span></p>
            <p class="field"><label for="name-ar">{{nameArLabel}}</label><input id="name-ar" name="name-ar" lang="ar" dir="rtl"></p>
            <p class="field"><label for="name-en">{{nameEnLabel}}</label><input id="name-en" name="name-en" lang="en" dir="ltr"></p>
            <p><button type="submit" class="primary">{{add}}</button></p>
            </form>
            """)
    }
}

private extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
