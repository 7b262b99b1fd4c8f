import Core
import Foundation
import HogwartsTestSupport
import Testing

// Three modules: Ledger owns a table and publishes a view of it; Reader depends on Ledger;
// Outsider does not. Each reads what its action's `target` names.

private struct LedgerModule: AppModule {
    let id: ModuleID = "ledger"
    let version = SemanticVersion(1, 0, 0)
    var migrations: [Migration] {
        [
            Migration("001-entries", sql: """
                CREATE TABLE ledger_entries (school_id TEXT NOT NULL, amount INTEGER NOT NULL, secret TEXT NOT NULL);
                CREATE VIEW ledger_v1_totals AS SELECT school_id, SUM(amount) AS total FROM ledger_entries GROUP BY school_id;
                """),
        ]
    }
    var ownedTables: [String] { ["ledger_entries"] }
    var publishedViews: [String] { ["ledger_v1_totals"] }
    var permissions: [PermissionDefinition] {
        [PermissionDefinition("ledger.write", summary: LocalizedText(ar: "كتابة", en: "Write"), grants: [.admin: .school])]
    }
    var actions: [any Action.Type] { [AddEntry.self] }
    var strings: StringCatalog { StringCatalog(ar: [:], en: [:]) }
}

private struct AddEntry: Action {
    struct Input: Codable, Sendable { var amount: Int }
    static let id = "ledger.add"
    static let permission: Permission = "ledger.write"
    func perform(_ input: Input, in context: ActionContext) throws -> Bool {
        try context.database.insert(into: "ledger_entries", ["amount": .integer(Int64(input.amount)), "secret": "s"])
        return true
    }
}

/// What a reading action runs: a statement, or a Ledger function that reads Ledger's own table.
private enum Target: String, Codable, Sendable {
    case table, view, ledgerFunction, functionThenTable, mentions
}

/// Ledger's published Swift read: it runs as Ledger's code whoever calls it.
private enum LedgerReads {
    static func count(_ context: ActionContext) throws -> Int {
        try context.published(by: "ledger") {
            try context.database.fetchValue("SELECT COUNT(*) FROM ledger_entries WHERE school_id = :school_id") ?? 0
        }
    }
}

private func read(_ target: Target, _ context: ActionContext) throws -> Int {
    switch target {
    case .table: try context.database.fetchValue("SELECT SUM(amount) FROM ledger_entries WHERE school_id = :school_id") ?? 0
    case .view: try context.database.fetchValue("SELECT total FROM ledger_v1_totals WHERE school_id = :school_id") ?? 0
    case .ledgerFunction: try LedgerReads.count(context)
    case .functionThenTable: try LedgerReads.count(context) + read(.table, context)
    case .mentions:
        try context.database.fetchValue("""
            SELECT COUNT(*) /* not ledger_entries */ FROM ledger_v1_totals -- nor ledger_entries
            WHERE school_id = :school_id AND 'ledger_entries' <> :ledger_entries
            """, ["ledger_entries": .text("x")]) ?? 0
    }
}

private struct ReaderRead: Action {
    static let id = "reader.read"
    static let permission: Permission = "reader.use"
    static let isReadOnly = true
    func perform(_ input: Target, in context: ActionContext) throws -> Int { try read(input, context) }
}

private struct OutsiderRead: Action {
    static let id = "outsider.read"
    static let permission: Permission = "outsider.use"
    static let isReadOnly = true
    func perform(_ input: Target, in context: ActionContext) throws -> Int { try read(input, context) }
}

private struct ReaderModule: AppModule {
    let id: ModuleID = "reader"
    let version = SemanticVersion(1, 0, 0)
    var dependencies: [ModuleDependency] { [ModuleDependency("ledger")] }
    var permissions: [PermissionDefinition] {
        [PermissionDefinition("reader.use", summary: LocalizedText(ar: "قراءة", en: "Read"), grants: [.admin: .school])]
    }
    var actions: [any Action.Type] { [ReaderRead.self] }
    var strings: StringCatalog { StringCatalog(ar: [:], en: [:]) }
}

private struct OutsiderModule: AppModule {
    let id: ModuleID = "outsider"
    let version = SemanticVersion(1, 0, 0)
    var permissions: [PermissionDefinition] {
        [PermissionDefinition("outsider.use", summary: LocalizedText(ar: "قراءة", en: "Read"), grants: [.admin: .school])]
    }
    var actions: [any Action.Type] { [OutsiderRead.self] }
    var strings: StringCatalog { StringCatalog(ar: [:], en: [:]) }
}

/// A module that declares what its migration does not create, and creates what it does not declare.
private struct CarelessModule: AppModule {
    let id: ModuleID = "careless"
    let version = SemanticVersion(1, 0, 0)
    var migrations: [Migration] {
        [
            Migration("001", sql: "CREATE TABLE careless_items (school_id TEXT NOT NULL); CREATE TABLE careless_old (school_id TEXT NOT NULL);"),
            Migration("002", sql: "-- CREATE TABLE careless_comment\nALTER TABLE careless_old RENAME TO careless_new; CREATE TABLE IF NOT EXISTS \"careless_quoted\" (school_id TEXT);"),
        ]
    }
    var ownedTables: [String] { ["careless_items", "careless_old"] }
    var strings: StringCatalog { StringCatalog(ar: [:], en: [:]) }
}

@Suite("Modules never touch each other's tables")
struct TableOwnershipTests {
    func harness() throws -> TestHarness {
        let harness = try TestHarness(modules: [LedgerModule(), ReaderModule(), OutsiderModule()])
        try harness.run(AddEntry.self, .init(amount: 5), as: .admin)
        try harness.run(AddEntry.self, .init(amount: 7), as: .admin)
        return harness
    }

    @Test("a module that names another module's table is refused, naming both modules, in Arabic and English")
    func foreignTableRefused() throws {
        let harness = try harness()
        let refusal = ModuleBoundaryError.foreignTable(module: "reader", table: "ledger_entries", owner: "ledger")
        #expect(throws: refusal) { try harness.run(ReaderRead.self, .table, as: .admin) }
        #expect(throws: ModuleBoundaryError.foreignTable(module: "outsider", table: "ledger_entries", owner: "ledger")) {
            try harness.run(OutsiderRead.self, .table, as: .admin)
        }
        for language in [Language.en, .ar] {
            let message = Localizer(language: language, catalog: harness.kernel.registry.catalog).message(for: refusal)
            #expect(message.contains("reader") && message.contains("ledger") && message.contains("ledger_entries"), "\(language): \(message)")
            #expect(!message.contains("kernel.error"), "\(language): \(message)")
        }
    }

    @Test("a declared dependency's published view is read; a module that does not declare it is refused")
    func views() throws {
        let harness = try harness()
        #expect(try harness.run(ReaderRead.self, .view, as: .admin) == 12)
        // A table named only in a comment, a string or a parameter's name is not read.
        #expect(try harness.run(ReaderRead.self, .mentions, as: .admin) == 1)
        #expect(throws: ModuleBoundaryError.undeclaredDependency(module: "outsider", view: "ledger_v1_totals", owner: "ledger")) {
            try harness.run(OutsiderRead.self, .view, as: .admin)
        }
    }

    @Test("a function Ledger publishes reads Ledger's table for a dependent, and is refused to a module that does not depend on it")
    func publishedFunctions() throws {
        let harness = try harness()
        #expect(try harness.run(ReaderRead.self, .ledgerFunction, as: .admin) == 2)
        #expect(throws: ModuleBoundaryError.undeclaredDependency(module: "outsider", view: "ledger functions", owner: "ledger")) {
            try harness.run(OutsiderRead.self, .ledgerFunction, as: .admin)
        }
        // Once Ledger's function returns, Reader's own statements are Reader's again.
        #expect(throws: ModuleBoundaryError.foreignTable(module: "reader", table: "ledger_entries", owner: "ledger")) {
            try harness.run(ReaderRead.self, .functionThenTable, as: .admin)
        }
    }

    @Test("the verdict for a text is the same the second time (it is remembered, not recomputed differently)")
    func remembered() throws {
        let harness = try harness()
        for _ in 0..<3 {
            #expect(try harness.run(ReaderRead.self, .view, as: .admin) == 12)
            #expect(throws: ModuleBoundaryError.self) { try harness.run(ReaderRead.self, .table, as: .admin) }
        }
    }

    @Test("the registry refuses a table or view declared outside the module's prefix, or a view without a version")
    func declarationsNamed() throws {
        struct Declaring: AppModule {
            let id: ModuleID = "report-cards"
            let version = SemanticVersion(1, 0, 0)
            var ownedTables: [String]
            var publishedViews: [String] = []
            var strings: StringCatalog { StringCatalog(ar: [:], en: [:]) }
        }
        _ = try ModuleRegistry([Declaring(ownedTables: ["report_cards_items"], publishedViews: ["report_cards_v2_items"])])
        #expect(throws: KernelError.duplicateDeclaration(kind: "table", name: "ledger_entries")) {
            try ModuleRegistry([Declaring(ownedTables: ["ledger_entries"])])
        }
        #expect(throws: KernelError.duplicateDeclaration(kind: "view", name: "report_cards_items_view")) {
            try ModuleRegistry([Declaring(ownedTables: [], publishedViews: ["report_cards_items_view"])])
        }
        #expect(throws: KernelError.duplicateDeclaration(kind: "table", name: "report_cards_v1_items")) {
            try ModuleRegistry([Declaring(ownedTables: ["report_cards_v1_items"])])
        }
    }

    @Test("a table a migration creates without its declaration, or a declaration with no table, is reported")
    func declarationsMatchMigrations() {
        let mismatches = ModuleSchema.mismatches(of: CarelessModule())
        #expect(mismatches.undeclared == ["careless_new", "careless_quoted"])
        #expect(mismatches.notCreated == ["careless_old"])
        #expect(ModuleSchema.mismatches(of: LedgerModule()).undeclared.isEmpty)
        #expect(ModuleSchema.mismatches(of: LedgerModule()).notCreated.isEmpty)
    }
}

@Suite("The kernel's tables are no module's")
struct KernelTablesTests {
    private struct Peek: Action {
        static let id = "peeker.peek"
        static let permission: Permission = "peeker.use"
        static let isReadOnly = true
        func perform(_ input: Target, in context: ActionContext) throws -> Int {
            try context.database.fetchValue("SELECT COUNT(*) FROM kernel_audit WHERE school_id = :school_id") ?? 0
        }
    }

    private struct Peeker: AppModule {
        let id: ModuleID = "peeker"
        let version = SemanticVersion(1, 0, 0)
        var permissions: [PermissionDefinition] {
            [PermissionDefinition("peeker.use", summary: LocalizedText(ar: "قراءة", en: "Read"), grants: [.admin: .school])]
        }
        var actions: [any Action.Type] { [Peek.self] }
        var strings: StringCatalog { StringCatalog(ar: [:], en: [:]) }
    }

    @Test("a module reading the audit log's table is refused, naming the kernel as its owner")
    func kernelTableRefused() throws {
        let harness = try TestHarness(modules: [Peeker()])
        #expect(throws: ModuleBoundaryError.foreignTable(module: "peeker", table: "kernel_audit", owner: "kernel")) {
            try harness.run(Peek.self, .view, as: .admin)
        }
    }
}
