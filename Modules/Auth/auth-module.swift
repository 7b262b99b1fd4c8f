import ArgumentParser
import Core
import Foundation

/// Auth: the school's users, their roles, passwords and sign-in sessions.
public struct AuthModule: AppModule, CommandLineModule, HTTPModule, SyncModule, IdentityModule {
    public init() {}

    public let id: ModuleID = Self.moduleID
    /// The id published functions run under (`ActionContext.published(by:)`).
    public static let moduleID: ModuleID = "auth"
    public let version = SemanticVersion(1, 0, 0)
    public var iconName: String { "person.badge.key" }
    public var permissions: [PermissionDefinition] { AuthPermissions.definitions }
    public var migrations: [Migration] { AuthMigrations.all }
    public var ownedTables: [String] { ["auth_invitations", "auth_openid_nonces", "auth_openid_providers", "auth_password_resets", "auth_profile_fields", "auth_sessions", "auth_sign_in_attempts", "auth_users"] }
    public var publishedViews: [String] { ["auth_v1_people"] }
    public var actions: [any Action.Type] {
        [SignIn.self, ResolveSession.self, SignOut.self, FindAccount.self, CurrentUser.self,
         CreateUser.self, CreateUsers.self, ListUsers.self, CountUsers.self, ChangeRole.self, SetSuspended.self, ResetPassword.self, UnlockUser.self,
         ShowProfile.self, UpdateProfile.self, RequestPasswordReset.self, VerifyResetCode.self, CompletePasswordReset.self,
         InviteUser.self, ShowInvitation.self, AcceptInvitation.self,
         AddOpenIDProvider.self, ListOpenIDProviders.self, RemoveOpenIDProvider.self, SignInProviders.self, SignInWithOpenID.self,
         CheckPassword.self, SignInChosenSchool.self, FindActiveAccount.self]
    }
    public var routes: [APIRoute] { AuthRoutes.all }
    public var queries: [NamedQueryProvider] { AuthPublishedQueries.all }
    /// Mail to one account (a reset code, an invitation), sent by whichever module delivers email.
    public var publishedEvents: [any DomainEvent.Type] { [AccountMailRequested.self] }
    public var syncEntities: [SyncEntityType] { AuthSync.entities }
    public var syncMutations: [SyncMutation] { AuthSync.mutations }
    public var commands: [any ParsableCommand.Type] {
        [LoginCommand.self, LogoutCommand.self, WhoAmICommand.self, UsersCommand.self, SchoolCommand.self, AuthCommand.self]
    }
    public var settings: [SettingDefinition] { [AuthSettings.passwordHashCost.definition, AuthSettings.openIDNewAccounts.definition] }
    public var strings: StringCatalog { Self.catalog }
    public var identityProvider: any IdentityProvider { SessionIdentityProvider() }

    private static let catalog = StringCatalog.load(from: .module)

    public func seedDemo(_ context: ActionContext, size: DemoSize) throws {
        try AuthDemo.seed(context, size: size)
    }
}

public enum AuthSettings {
    /// bcrypt's cost: each step doubles the time to check a password, for us and for an attacker.
    public static let passwordHashCost = Setting<Int>.integer("auth", "password-hash-cost", default: 12, in: 10...16)
    /// Whether a verified email of a provider's allowed domain that has no account here gets one
    /// when it signs in, and with which role. Off unless the school chooses: accounts are never
    /// made silently. Never an administrator's or an accountant's role.
    public static let openIDNewAccounts = Setting<String>.choice("auth", "openid-new-accounts", default: "off",
                                                                 from: ["off", "student", "guardian", "teacher", "staff"])
}
