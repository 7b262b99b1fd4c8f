/// The files of a new module, filled in from templates.
struct Scaffold {
    let name: String
    let id: String
    let directDependencies: [String]
    let dependencyClosure: [String]

    init(name: String, directDependencies: [String], dependencyClosure: [String]) {
        self.name = name
        self.id = Self.kebab(name)
        self.directDependencies = directDependencies
        self.dependencyClosure = dependencyClosure
    }

    /// `ReportCards` -> `report-cards`: the module id, table prefix and command name.
    static func kebab(_ name: String) -> String {
        var result = ""
        for character in name {
            if character.isUppercase, !result.isEmpty { result.append("-") }
            result.append(contentsOf: character.lowercased())
        }
        return result
    }

    var packageEntry: String {
        "    (\"\(name)\", [\(directDependencies.map { "\"\($0)\"" }.joined(separator: ", "))]),"
    }

    var files: [(String, String)] {
        [
            ("Modules/\(name)/\(id)-module.swift", fill(Templates.module)),
            ("Modules/\(name)/\(id)-migrations.swift", fill(Templates.migrations)),
            ("Modules/\(name)/\(id)-authorization.swift", fill(Templates.authorization)),
            ("Modules/\(name)/\(id)-actions.swift", fill(Templates.actions)),
            ("Modules/\(name)/\(id)-commands.swift", fill(Templates.commands)),
            ("Modules/\(name)/\(id)-routes.swift", fill(Templates.routes)),
            ("Modules/\(name)/\(id)-console.swift", fill(Templates.console)),
            ("Modules/\(name)/Resources/strings/ar.json", fill(Templates.arabicStrings)),
            ("Modules/\(name)/Resources/strings/en.json", fill(Templates.englishStrings)),
            ("Tests/\(name)Tests/\(id)-tests.swift", fill(Templates.tests)),
            ("Tests/\(name)Tests/\(id)-routes-tests.swift", fill(Templates.routeTests)),
            ("Tests/\(name)Tests/\(id)-console-tests.swift", fill(Templates.consoleTests)),
        ]
    }

    func fill(_ template: String) -> String {
        let dependencyIDs = directDependencies.map { "ModuleDependency(\"\(Self.kebab($0))\", \"*\")" }.joined(separator: ", ")
        return template
            .replacingOccurrences(of: "__IMPORTS__", with: directDependencies.map { "import \($0)\n" }.joined())
            .replacingOccurrences(of: "__TEST_IMPORTS__", with: dependencyClosure.map { "import \($0)\n" }.joined())
            .replacingOccurrences(of: "__DEPENDENCIES__", with: dependencyIDs)
            .replacingOccurrences(of: "__PRODUCTS__", with: directDependencies.map { ".product(name: \"\($0)\", package: hogwarts)" }.joined(separator: ", "))
            .replacingOccurrences(of: "__TEST_PRODUCTS__", with: dependencyClosure.map { ".product(name: \"\($0)\", package: hogwarts)" }.joined(separator: ", "))
            .replacingOccurrences(of: "__CLOSURE__", with: (dependencyClosure + [name]).map { "\($0)Module()" }.joined(separator: ", "))
            .replacingOccurrences(of: "__Name__", with: name)
            .replacingOccurrences(of: "__table__", with: id.replacingOccurrences(of: "-", with: "_"))
            .replacingOccurrences(of: "__id__", with: id)
    }
}

enum Templates {
    static let module = """
        import ArgumentParser
        import Core
        import Foundation
        __IMPORTS__
        /// __Name__: describe what this feature does for a school here.
        public struct __Name__Module: AppModule, CommandLineModule, HTTPModule {
            public init() {}

            public let id: ModuleID = "__id__"
            public let version = SemanticVersion(0, 1, 0)
            public var iconName: String { "square.grid.2x2" }
            /// Narrow "*" to the versions you have tested with, e.g. "^1.0.0".
            public var dependencies: [ModuleDependency] { [__DEPENDENCIES__] }
            public var permissions: [PermissionDefinition] { __Name__Permissions.definitions }
            public var migrations: [Migration] { __Name__Migrations.all }
            /// Every table the migrations create: only this module's code may name them. Views
            /// other modules may read go in `publishedViews`, named `__table___v1_...`.
            public var ownedTables: [String] { ["__table___items"] }
            public var actions: [any Action.Type] { [Add__Name__Item.self, List__Name__Items.self] }
            public var commands: [any ParsableCommand.Type] { [__Name__Command.self] }
            public var routes: [APIRoute] { __Name__Routes.all }
            public var strings: StringCatalog { Self.catalog }

            private static let catalog = StringCatalog.load(from: .module)

            public func seedDemo(_ context: ActionContext, size: DemoSize) throws {
                _ = try Add__Name__Item().perform(.init(title: context.localizer("__id__.demo.first-item")), in: context)
            }
        }

        """

    static let migrations = """
        import Core

        /// Append-only: never edit a released migration, add the next one.
        enum __Name__Migrations {
            static let all: [Migration] = [
                Migration("001-create-items", sql: \"\"\"
                    CREATE TABLE __table___items (
                        school_id TEXT NOT NULL,
                        id TEXT NOT NULL,
                        title TEXT NOT NULL,
                        created_by TEXT NOT NULL,
                        created_at TEXT NOT NULL,
                        PRIMARY KEY (school_id, id)
                    );
                    \"\"\"),
            ]
        }

        """

    static let authorization = """
        import Core

        /// The permissions this module defines and the roles granted them by default.
        public enum __Name__Permissions {
            public static let read: Permission = "__id__.read"
            public static let write: Permission = "__id__.write"

            static var definitions: [PermissionDefinition] {
                [
                    PermissionDefinition(read, summary: LocalizedText(ar: "عرض عناصر __Name__", en: "View __Name__ items"),
                                         grants: [.developer: .school, .admin: .school, .teacher: .school, .staff: .school]),
                    PermissionDefinition(write, summary: LocalizedText(ar: "إضافة عناصر __Name__", en: "Add __Name__ items"),
                                         grants: [.developer: .school, .admin: .school, .teacher: .school]),
                ]
            }
        }

        """

    static let actions = """
        import Core
        import Foundation

        public struct __Name__Item: Codable, Sendable, Equatable {
            public let id: String
            public let title: String
            public let createdAt: Date
        }

        /// Adds one item to the school.
        public struct Add__Name__Item: Action {
            public struct Input: Codable, Sendable {
                public var title: String
                public init(title: String) { self.title = title }
            }

            public static let id = "__id__.add"
            public static let permission = __Name__Permissions.write

            public init() {}

            public func validate(_ input: Input, in context: ActionContext) throws {
                let title = input.title.trimmingCharacters(in: .whitespacesAndNewlines)
                guard (1...200).contains(title.count) else { throw InputError("__id__.error.title-length", ["max": "200"]) }
            }

            public func perform(_ input: Input, in context: ActionContext) throws -> __Name__Item {
                let item = __Name__Item(id: context.newID(), title: input.title.trimmingCharacters(in: .whitespacesAndNewlines), createdAt: context.now)
                try context.database.insert(into: "__table___items", [
                    "id": .text(item.id), "title": .text(item.title),
                    "created_by": .text(context.principal.userID), "created_at": SQLValue(item.createdAt),
                ])
                return item
            }
        }

        /// Lists the school's items, oldest first.
        public struct List__Name__Items: Action {
            public struct Input: Codable, Sendable { public init() {} }

            public static let id = "__id__.list"
            public static let permission = __Name__Permissions.read
            public static let isReadOnly = true

            public init() {}

            public func perform(_ input: Input, in context: ActionContext) throws -> [__Name__Item] {
                try context.database.fetchAll(
                    "SELECT id, title, created_at FROM __table___items WHERE school_id = :school_id ORDER BY created_at, id"
                ).map { row in
                    __Name__Item(id: row.string("id"), title: row.string("title"), createdAt: row["created_at"] ?? Date(timeIntervalSince1970: 0))
                }
            }
        }

        """

    static let commands = """
        import ArgumentParser
        import Core

        /// `hogwarts __id__ add|list`: thin commands that parse, run an action and print.
        struct __Name__Command: ParsableCommand {
            static var configuration: CommandConfiguration {
                CommandConfiguration(commandName: "__id__", abstract: L("__id__.cli.abstract"), subcommands: [Add.self, List.self], defaultSubcommand: List.self)
            }

            struct Add: ParsableCommand {
                static var configuration: CommandConfiguration { CommandConfiguration(commandName: "add", abstract: L("__id__.cli.add")) }

                @OptionGroup var global: GlobalOptions
                @OptionGroup var session: SessionOptions
                @Argument(help: ArgumentHelp(L("__id__.argument.title"))) var title: String

                func run() throws {
                    let session = try CommandSession(global, self.session)
                    let item = try session.run(Add__Name__Item.self, .init(title: title))
                    try session.output.emit(item) { L("__id__.item.added", ["title": $0.title]) }
                }
            }

            struct List: ParsableCommand {
                static var configuration: CommandConfiguration { CommandConfiguration(commandName: "list", abstract: L("__id__.cli.list")) }

                @OptionGroup var global: GlobalOptions
                @OptionGroup var session: SessionOptions

                func run() throws {
                    let session = try CommandSession(global, self.session)
                    let items = try session.run(List__Name__Items.self, .init())
                    try session.output.emit(items) { items in
                        TextTable(headers: [L("__id__.heading.title"), L("__id__.heading.created")],
                                  rows: items.map { [$0.title, $0.createdAt.formatted(.iso8601)] })
                    }
                }
            }
        }

        """

    static let routes = """
        import Core
        import Foundation

        /// `/api/v1/__id__`: the same actions as the commands, over HTTP. A handler decodes, runs
        /// the action through the kernel (permission, school, module switch) and encodes. Each answer's
        /// OpenAPI schema is read from the type it encodes (`APISchema.of`).
        enum __Name__Routes {
            struct NewItem: Decodable {
                let title: String
            }

            static var all: [APIRoute] {
                [
                    APIRoute(.get, "/api/v1/__id__/items", summary: "The school's items", response: .of(APIList<__Name__Item>.self)) { request in
                        try .json(APIList(try await request.run(List__Name__Items.self, .init())))
                    },
                    APIRoute(.post, "/api/v1/__id__/items", summary: "Adds an item", body: .object([("title", .string(maxLength: 200))]),
                             status: 201, response: .of(__Name__Item.self)) { request in
                        let body = try request.decode(NewItem.self)
                        return try .json(try await request.run(Add__Name__Item.self, .init(title: body.title)), status: 201)
                    },
                ]
            }
        }

        """

    static let console = """
        import Core
        import Foundation

        extension __Name__Module: ConsoleModule {
            /// A page in the web console's menu and a card on the dashboard (`/m/__id__/items`).
            public var consolePages: [ConsolePage] { [__Name__Console.items] }
            public var consoleCards: [ConsoleCard] { [__Name__Console.count] }
        }

        /// The console runs the same actions as the commands and routes: the page reads the form,
        /// runs the action through the kernel, and renders. Values in templates are escaped.
        enum __Name__Console {
            static let items = ConsolePage("items", title: LocalizedText(ar: "عناصر __Name__", en: "__Name__ items"),
                                           permission: __Name__Permissions.read) { console in
                if console.isPost {
                    _ = try await console.run(Add__Name__Item.self, .init(title: console.form.value("title") ?? ""))
                    return .redirect(console.pagePath("__id__", "items"))
                }
                let items = try await console.run(List__Name__Items.self, .init())
                return .page(title: console.say(LocalizedText(ar: "عناصر __Name__", en: "__Name__ items")), body: page.render(console.common.merging([
                    "items": items.map { ["title": $0.title] }, "canAdd": console.may(__Name__Permissions.write),
                    "titleLabel": console.say(LocalizedText(ar: "العنوان", en: "Title")), "add": console.say(LocalizedText(ar: "إضافة", en: "Add")),
                    "action": console.pagePath("__id__", "items"),
                ]) { $1 }))
            }

            static let count = ConsoleCard("count", title: LocalizedText(ar: "__Name__", en: "__Name__"), permission: __Name__Permissions.read) { console in
                let items = try await console.run(List__Name__Items.self, .init())
                return ConsoleHTML.text(console.say(LocalizedText(ar: "{count} عنصر", en: "{count} items"), ["count": String(items.count)]))
            }

            static let page = ConsoleTemplate(\"\"\"
                <ul>{{#items}}<li>{{title}}</li>{{/items}}</ul>
                {{#canAdd}}<form method="post" action="{{action}}" class="panel actions"><input type="hidden" name="_csrf" value="{{csrf}}">
                <p><label for="title">{{titleLabel}}</label><input id="title" name="title" required></p><button type="submit">{{add}}</button></form>{{/canAdd}}
                \"\"\")
        }

        """

    static let consoleTests = """
        import Core
        import HogwartsTestSupport
        import Testing
        __TEST_IMPORTS__import __Name__

        @Suite("__Name__ in the web console")
        struct __Name__ConsoleTests {
            @Test("the page lists the school's items and its card counts them, in Arabic by default")
            func pageAndCard() async throws {
                let harness = try TestHarness(modules: [__CLOSURE__])
                try harness.run(Add__Name__Item.self, .init(title: "First"), as: .admin)
                let module = __Name__Module()
                let page = try #require(module.consolePages.first)
                #expect(page.path == "items")
                #expect(module.consoleCards.count == 1)
                #expect(harness.kernel.registry.modules.contains { $0.id == "__id__" && !$0.contributedConsolePages.isEmpty })
            }
        }

        """

    static let routeTests = """
        import Core
        import HogwartsTestSupport
        import Testing
        __TEST_IMPORTS__import __Name__

        @Suite("__Name__ routes")
        struct __Name__RouteTests {
            @Test("a teacher adds an item over HTTP and staff list it")
            func addAndList() async throws {
                let harness = try TestHarness(modules: [__CLOSURE__])
                try await harness.api { api in
                    let added = try await api.post("/api/v1/__id__/items", as: harness.user(.teacher), json: ["title": "First"])
                    #expect(added.status == 201)
                    #expect(added.object["title"] as? String == "First")
                    let listed = try await api.get("/api/v1/__id__/items", as: harness.user(.staff))
                    #expect(listed.data.map { $0["title"] as? String } == ["First"])
                }
            }

            @Test("no token, a student, bad input and another school are refused")
            func refusals() async throws {
                let harness = try TestHarness(modules: [__CLOSURE__])
                let other = try harness.makeSchool("other-school")
                try harness.run(Add__Name__Item.self, .init(title: "Ours"), as: .admin)
                try await harness.api { api in
                    #expect(try await api.get("/api/v1/__id__/items").status == 401)
                    #expect(try await api.post("/api/v1/__id__/items", as: harness.user(.student), json: ["title": "Nope"]).status == 403)
                    let wrongType = try await api.post("/api/v1/__id__/items", as: harness.user(.admin), json: ["title": 7])
                    #expect(wrongType.status == 400 && wrongType.code == "INVALID_FIELD")
                    #expect(try await api.get("/api/v1/__id__/items", as: harness.user(.admin, in: other)).data.isEmpty)
                }
            }
        }

        """

    static let arabicStrings = """
        {
          "__id__.module.name": "__Name__",
          "__id__.module.description": "صف هنا ما تقدمه هذه الوحدة للمدرسة.",
          "__id__.cli.abstract": "يدير عناصر __Name__ في المدرسة.",
          "__id__.cli.add": "يضيف عنصرًا.",
          "__id__.cli.list": "يعرض العناصر.",
          "__id__.argument.title": "عنوان العنصر (من 1 إلى 200 حرف).",
          "__id__.heading.title": "العنوان",
          "__id__.heading.created": "أُنشئ في",
          "__id__.item.added": "أُضيف «{title}».",
          "__id__.error.title-length": "يجب أن يكون العنوان من 1 إلى {max} حرف. صحّحه وأعد المحاولة.",
          "__id__.demo.first-item": "أول عنصر تجريبي"
        }

        """

    static let englishStrings = """
        {
          "__id__.module.name": "__Name__",
          "__id__.module.description": "Describe here what this module does for a school.",
          "__id__.cli.abstract": "Manages the school's __Name__ items.",
          "__id__.cli.add": "Adds an item.",
          "__id__.cli.list": "Lists the items.",
          "__id__.argument.title": "The item's title (1 to 200 characters).",
          "__id__.heading.title": "Title",
          "__id__.heading.created": "Created",
          "__id__.item.added": "Added \\"{title}\\".",
          "__id__.error.title-length": "The title must be 1 to {max} characters. Correct it and try again.",
          "__id__.demo.first-item": "First demo item"
        }

        """

    static let tests = """
        import Core
        import HogwartsTestSupport
        import Testing
        __TEST_IMPORTS__import __Name__

        @Suite("__Name__ module")
        struct __Name__Tests {
            /// A fresh database with exactly this module and its dependencies.
            func makeHarness() throws -> TestHarness {
                try TestHarness(modules: [__CLOSURE__])
            }

            @Test("every string exists in Arabic and English")
            func strings() {
                let catalog = __Name__Module().strings
                #expect(catalog.text("__id__.module.name", in: .en) != nil, "the catalog loaded from the module's resources")
                #expect(catalog.missingTranslations.isEmpty)
            }

            @Test("the tables the module declares are exactly those its migrations create")
            func declaredTables() {
                let mismatches = ModuleSchema.mismatches(of: __Name__Module())
                #expect(mismatches.undeclared.isEmpty, "add them to ownedTables (or publishedViews)")
                #expect(mismatches.notCreated.isEmpty)
            }

            @Test("a teacher adds an item and everyone with access sees it")
            func addAndList() throws {
                let harness = try makeHarness()
                try harness.run(Add__Name__Item.self, .init(title: "  First  "), as: .teacher)
                #expect(try harness.run(List__Name__Items.self, .init(), as: .staff).map(\\.title) == ["First"])
            }

            @Test("a student cannot add items, and nothing is written")
            func studentDenied() throws {
                let harness = try makeHarness()
                #expect(throws: KernelError.permissionDenied(permission: "__id__.write", role: .student)) {
                    try harness.run(Add__Name__Item.self, .init(title: "Nope"), as: .student)
                }
                #expect(try harness.run(List__Name__Items.self, .init(), as: .admin).isEmpty)
            }

            @Test("an empty title is refused before anything is written")
            func emptyTitle() throws {
                let harness = try makeHarness()
                #expect(throws: InputError("__id__.error.title-length", ["max": "200"])) {
                    try harness.run(Add__Name__Item.self, .init(title: "   "), as: .admin)
                }
                #expect(try harness.run(List__Name__Items.self, .init(), as: .admin).isEmpty)
            }

            @Test("items stay in their school")
            func tenancy() throws {
                let harness = try makeHarness()
                let other = try harness.makeSchool("other-school")
                try harness.run(Add__Name__Item.self, .init(title: "Ours"), as: .admin)
                #expect(try harness.kernel.run(List__Name__Items.self, .init(), as: harness.user(.admin, in: other), in: other.id).isEmpty)
            }
        }

        """
}
