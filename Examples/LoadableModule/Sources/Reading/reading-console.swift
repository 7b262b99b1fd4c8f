import Core
import Foundation

extension ReadingModule: ConsoleModule {
    /// A page in the web console's menu and a card on the dashboard (`/m/reading/items`).
    public var consolePages: [ConsolePage] { [ReadingConsole.items] }
    public var consoleCards: [ConsoleCard] { [ReadingConsole.count] }
}

/// The console runs the same actions as the commands and routes: the page reads the form,
/// runs the action through the kernel, and renders. Values in templates are escaped.
enum ReadingConsole {
    static let items = ConsolePage("items", title: LocalizedText(ar: "عناصر Reading", en: "Reading items"),
                                   permission: ReadingPermissions.read) { console in
        if console.isPost {
            _ = try await console.run(AddReadingItem.self, .init(title: console.form.value("title") ?? ""))
            return .redirect(console.pagePath("reading", "items"))
        }
        let items = try await console.run(ListReadingItems.self, .init())
        return .page(title: console.say(LocalizedText(ar: "عناصر Reading", en: "Reading items")), body: page.render(console.common.merging([
            "items": items.map { ["title": $0.title] }, "canAdd": console.may(ReadingPermissions.write),
            "titleLabel": console.say(LocalizedText(ar: "العنوان", en: "Title")), "add": console.say(LocalizedText(ar: "إضافة", en: "Add")),
            "action": console.pagePath("reading", "items"),
        ]) { $1 }))
    }

    static let count = ConsoleCard("count", title: LocalizedText(ar: "Reading", en: "Reading"), permission: ReadingPermissions.read) { console in
        let items = try await console.run(ListReadingItems.self, .init())
        return ConsoleHTML.text(console.say(LocalizedText(ar: "{count} عنصر", en: "{count} items"), ["count": String(items.count)]))
    }

    static let page = ConsoleTemplate("""
        <ul>{{#items}}<li>{{title}}</li>{{/items}}</ul>
        {{#canAdd}}<form method="post" action="{{action}}" class="panel actions"><input type="hidden" name="_csrf" value="{{csrf}}">
        <p><label for="title">{{titleLabel}}</label><input id="title" name="title" required></p><button type="submit">{{add}}</button></form>{{/canAdd}}
        """)
}
