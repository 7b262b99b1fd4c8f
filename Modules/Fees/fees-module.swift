import ArgumentParser
import Core
import Foundation
import Students

/// Fees: structures, invoices, payments, refunds, statements and receivables for the
/// accountant, balances for the guardians. Money is whole minor units of the school's currency.
public struct FeesModule: AppModule, CommandLineModule, HTTPModule, SyncModule {
    public init() {}

    public let id: ModuleID = "fees"
    public let version = SemanticVersion(0, 1, 0)
    public var iconName: String { "banknote" }
    public var dependencies: [ModuleDependency] { [ModuleDependency("students", "^1.0.0")] }
    public var permissions: [PermissionDefinition] { FeesPermissions.definitions }
    public var migrations: [Migration] { FeesMigrations.all }
    /// Every table the migrations create: only this module's code may name them.
    public var ownedTables: [String] { FeesMigrations.tables }
    public var publishedEvents: [any DomainEvent.Type] { [FeeReminderDue.self] }
    public var actions: [any Action.Type] {
        [AddFeeStructure.self, ListFeeStructures.self, GrantFeeDiscount.self, GenerateInvoices.self, CancelOpenFees.self, RecordFeePayment.self,
         RefundFeePayment.self, StudentFeeAccount.self, FeeBalances.self, ListFeeInvoices.self, AgedReceivables.self, FeeCollections.self,
         LateFeesDue.self, ApplyLateFees.self, FeeRemindersDue.self, SendFeeReminders.self, SetFeeReminders.self,
         ShowFeeReminders.self, FeeClassTotals.self]
    }
    public var commands: [any ParsableCommand.Type] { [FeesCommand.self] }
    public var settings: [SettingDefinition] { FeesSettings.definitions }
    public var routes: [APIRoute] { FeesRoutes.all }
    /// Guardians read their children's accounts offline; payments are online only.
    public var syncEntities: [SyncEntityType] { FeesSync.entities }
    public var syncScopes: SyncScopeRule? { FeesSync.scopes }
    /// Every server charges late fees that have fallen due and reminds families of what falls due;
    /// the guarded updates charge and remind each invoice once.
    public var backgroundJobs: [BackgroundJob] {
        [BackgroundJob("fees.late-fees", every: 3600, when: LateFeesDue.self, .init(), run: ApplyLateFees.self, .init()),
         BackgroundJob("fees.reminders", every: 3600, when: FeeRemindersDue.self, .init(), run: SendFeeReminders.self, .init())]
    }
    public var strings: StringCatalog { Self.catalog }

    private static let catalog = StringCatalog.load(from: .module)

    public func seedDemo(_ context: ActionContext, size: DemoSize) throws {
        try FeesDemo.seed(context, size: size)
    }
}
