import ArgumentParser
import Core
import Foundation

/// Students: the roster every other module builds on (students, guardians, year levels,
/// classes, subjects, school years and terms, enrolments and who teaches what).
public struct StudentsModule: AppModule, CommandLineModule, HTTPModule, SyncModule {
    public init() {}

    public let id: ModuleID = Self.moduleID
    /// The id published functions run under (`ActionContext.published(by:)`).
    public static let moduleID: ModuleID = "students"
    public let version = SemanticVersion(1, 0, 0)
    public var iconName: String { "person.3" }
    public var dependencies: [ModuleDependency] { [ModuleDependency("auth", "^1.0.0")] }
    public var permissions: [PermissionDefinition] { StudentsPermissions.definitions }
    public var migrations: [Migration] { StudentsMigrations.all }
    public var ownedTables: [String] {
        [
            "students_classes", "students_counters", "students_enrolments", "students_guardians",
            "students_roster_versions", "students_school_years", "students_student_guardians", "students_students",
            "students_subjects", "students_teaching", "students_terms", "students_year_levels"
        ]
    }
    public var publishedViews: [String] { StudentsViews.names }
    public var actions: [any Action.Type] {
        [CreateStudent.self, CreateStudents.self, AdmitStudent.self, UpdateStudent.self, ArchiveStudent.self, ListStudents.self, ShowStudent.self,
         ImportStudents.self, ExportStudents.self, EnrolStudent.self, LinkGuardian.self, LinkStudentAccount.self,
         CreateSchoolYear.self, CreateTerm.self, CreateYearLevel.self, CreateClass.self, CreateSubject.self, AssignTeacher.self,
         ListClasses.self, ListSubjects.self, ListTerms.self, ListSubjectCatalog.self, ShowSubject.self, ListMySubjects.self,
         ListChildren.self, ShowChild.self, ListTeacherClasses.self, ListClassStudents.self, BrowseClasses.self, ShowClass.self, CountRoster.self,
         ShowRosterSetup.self]
    }
    public var routes: [APIRoute] { StudentsRoutes.all }
    public var syncEntities: [SyncEntityType] { StudentsSync.entities }
    public var syncScopes: SyncScopeRule? { StudentsSync.scopes }
    public var dashboard: DashboardContribution? { StudentsClassRoutes.dashboard }
    public var adminStats: DashboardContribution? { StudentsClassRoutes.adminStats }
    public var commands: [any ParsableCommand.Type] {
        [StudentsCommand.self, GuardiansCommand.self, ClassesCommand.self, SubjectsCommand.self, TermsCommand.self]
    }
    public var strings: StringCatalog { Self.catalog }

    private static let catalog = StringCatalog.load(from: .module)

    public func seedDemo(_ context: ActionContext, size: DemoSize) throws {
        try StudentsDemo(context: context, size: size).seed()
    }
}
