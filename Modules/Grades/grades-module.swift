import ArgumentParser
import Core
import Foundation

/// Grades: assessments, results, grade scales, term marks, GPA, rank and report cards.
public struct GradesModule: AppModule, CommandLineModule, HTTPModule, SyncModule {
    public init() {}

    public let id: ModuleID = "grades"
    public let version = SemanticVersion(1, 0, 0)
    public var iconName: String { "graduationcap" }
    public var dependencies: [ModuleDependency] { [ModuleDependency("students", "^1.0.0")] }
    public var permissions: [PermissionDefinition] { GradesPermissions.definitions }
    public var migrations: [Migration] { GradesMigrations.all }
    public var ownedTables: [String] {
        [
            "grades_assessments", "grades_overrides", "grades_publications", "grades_result_changes", "grades_results",
            "grades_scales", "grades_weights"
        ]
    }
    public var actions: [any Action.Type] {
        [CreateAssessment.self, ListAssessments.self, EnterResults.self, StudentResults.self, ReportCard.self, GradeHistory.self,
         PublishReportCards.self, OverrideGrade.self, ShowScale.self, SetScale.self, SetWeights.self, SchoolReportCards.self,
         ResultsPage.self, ResultsSummary.self, ReportCardList.self, ReportCardDetail.self, ClassAssessments.self, UpcomingAssessments.self, GradeDistribution.self,
         AssessmentResults.self]
    }
    public var commands: [any ParsableCommand.Type] { [GradesCommand.self] }
    public var publishedEvents: [any DomainEvent.Type] { [ResultsPublished.self, ReportCardPublished.self] }
    public var queries: [NamedQueryProvider] { GradesPublishedQueries.all }
    public var strings: StringCatalog { Self.catalog }
    public var routes: [APIRoute] { GradesRoutes.all + [GradesPrintStyle.route] }
    public var syncEntities: [SyncEntityType] { GradesSync.entities }
    public var syncMutations: [SyncMutation] { GradesSync.mutations }
    public var dashboard: DashboardContribution? { GradesRoutes.dashboard }
    public var adminStats: DashboardContribution? { GradesRoutes.adminStats }

    private static let catalog = StringCatalog.load(from: .module)

    public func seedDemo(_ context: ActionContext, size: DemoSize) throws {
        try GradesDemo.seed(context, size: size)
    }
}
