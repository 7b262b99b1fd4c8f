import HogwartsBase

/// Says who is acting: the command line asks it who signed in (without one, a command runs as the
/// local operator, who can write the database file anyway), and the API who a refresh token's
/// user is now. A module (Auth) provides one.
public protocol IdentityProvider: Sendable {
    /// The signed-in principal, or nil to fall back to the local operator.
    func currentPrincipal(kernel: Kernel, variables: [String: String]) throws -> Principal?
    /// The user as they stand now (role, name, email), or nil when the account is gone or
    /// suspended: an API refresh token is exchanged only for someone who may still sign in.
    func currentUser(kernel: Kernel, school: SchoolID, userID: String) throws -> IdentifiedUser?
}

/// A user the identity provider vouches for.
public struct IdentifiedUser: Sendable {
    public let principal: Principal
    public let email: String?

    public init(principal: Principal, email: String?) {
        self.principal = principal
        self.email = email
    }
}

/// A module that vouches for people (Auth): the command line's and the API's identity provider.
public protocol IdentityModule: AppModule {
    var identityProvider: any IdentityProvider { get }
}

extension ModuleRegistry {
    /// The identity provider of the module that vouches for people (Auth), if the host has one.
    public var identityProvider: (any IdentityProvider)? {
        modules.lazy.compactMap { ($0 as? any IdentityModule)?.identityProvider }.first
    }
}
