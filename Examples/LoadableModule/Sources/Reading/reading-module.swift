import ArgumentParser
import Core
import Foundation

/// Reading: the books a class is reading. Built as a shared object (`build-loadable.sh`) that
/// the `hogwarts` host loads from its modules folder, with no change to the host.
public struct ReadingModule: AppModule, CommandLineModule, HTTPModule {
    public init() {}

    public let id: ModuleID = "reading"
    public let version = SemanticVersion(1, 0, 0)
    public var iconName: String { "book" }
    public var dependencies: [ModuleDependency] {
        #if READING_NEEDS_TRANSPORT
        // A build of this module that needs a module no host has: the host refuses it.
        [ModuleDependency("students", "^1.0.0"), ModuleDependency("transport", "^1.0.0")]
        #else
        [ModuleDependency("students", "^1.0.0")]
        #endif
    }
    public var permissions: [PermissionDefinition] { ReadingPermissions.definitions }
    public var migrations: [Migration] { ReadingMigrations.all }
    public var ownedTables: [String] { ["reading_items"] }
    public var actions: [any Action.Type] { [AddReadingItem.self, ListReadingItems.self] }
    public var commands: [any ParsableCommand.Type] { [ReadingCommand.self] }
    public var routes: [APIRoute] { ReadingRoutes.all }
    public var strings: StringCatalog { Self.catalog }

    /// In the code, not in a resource bundle: a shared object has no bundle beside it.
    private static let catalog = StringCatalog(
        ar: [
            "reading.module.name": "القراءة",
            "reading.module.description": "الكتب التي يقرؤها الصف؛ وحدة يحمّلها المضيف من مجلد الوحدات.",
            "reading.cli.abstract": "يدير عناصر Reading في المدرسة.",
            "reading.cli.add": "يضيف عنصرًا.",
            "reading.cli.list": "يعرض العناصر.",
            "reading.argument.title": "عنوان العنصر (من 1 إلى 200 حرف).",
            "reading.heading.title": "العنوان",
            "reading.heading.created": "أُنشئ في",
            "reading.item.added": "أُضيف «{title}».",
            "reading.error.title-length": "يجب أن يكون العنوان من 1 إلى {max} حرف. صحّحه وأعد المحاولة.",
            "reading.demo.first-item": "أول عنصر تجريبي",
        ],
        en: [
            "reading.module.name": "Reading",
            "reading.module.description": "The books a class is reading: a module the host loads from its modules folder.",
            "reading.cli.abstract": "Manages the school's Reading items.",
            "reading.cli.add": "Adds an item.",
            "reading.cli.list": "Lists the items.",
            "reading.argument.title": "The item's title (1 to 200 characters).",
            "reading.heading.title": "Title",
            "reading.heading.created": "Created",
            "reading.item.added": "Added \"{title}\".",
            "reading.error.title-length": "The title must be 1 to {max} characters. Correct it and try again.",
            "reading.demo.first-item": "First demo item",
        ]
    )

    public func seedDemo(_ context: ActionContext, size: DemoSize) throws {
        _ = try AddReadingItem().perform(.init(title: context.localizer("reading.demo.first-item")), in: context)
    }
}

/// The entry point the host calls once the handshake block (Sources/ReadingEntry) matched.
@_cdecl("hogwarts_module_create")
public func hogwartsModuleCreate() -> UnsafeMutableRawPointer {
    LoadedModule.entry(ReadingModule())
}
