import Core
import Foundation

extension ClubsModule: ConsoleModule {
    /// A page in the web console's menu and a card on the dashboard (`/m/clubs/items`).
    public var consolePages: [ConsolePage] { [ClubsConsole.items] }
    public var consoleCards: [ConsoleCard] { [ClubsConsole.count] }
}

/// The console runs the same actions as the commands and routes: the page reads the form,
/// runs the action through the kernel, and renders. Values in templates are escaped.
enum ClubsConsole {
    static let items = ConsolePage("items", title: LocalizedText(ar: "عناصر Clubs", en: "Clubs items"),
                                   permission: ClubsPermissions.read) { console in
        if console.isPost {
            _ = try await console.run(AddClubsItem.self, .init(title: console.form.value("title") ?? ""))
            return .redirect(console.pagePath("clubs", "items"))
        }
        let items = try await console.run(ListClubsItems.self, .init())
        return .page(title: console.say(LocalizedText(ar: "عناصر Clubs", en: "Clubs items")), body: page.render(console.common.merging([
            "items": items.map { ["title": $0.title] }, "canAdd": console.may(ClubsPermissions.write),
            "titleLabel": console.say(LocalizedText(ar: "العنوان", en: "Title")), "add": console.say(LocalizedText(ar: "إضافة", en: "Add")),
            "action": console.pagePath("clubs", "items"),
        ]) { $1 }))
    }

    static let count = ConsoleCard("count", title: LocalizedText(ar: "Clubs", en: "Clubs"), permission: ClubsPermissions.read) { console in
        let items = try await console.run(ListClubsItems.self, .init())
        return ConsoleHTML.text(console.say(LocalizedText(ar: "{count} عنصر", en: "{count} items"), ["count": String(items.count)]))
    }

    static let page = ConsoleTemplate("""
        <ul>{{#items}}<li>{{title}}</li>{{/items}}</ul>
        {{#canAdd}}<form method="post" action="{{action}}" class="panel actions"><input type="hidden" name="_csrf" value="{{csrf}}">
        <p><label for="title">{{titleLabel}}</label><input id="title" name="title" required></p><button type="submit">{{add}}</button></form>{{/canAdd}}
        """)
}
