import Core
import Foundation

/// One OpenID Connect provider a school signs people in with.
public struct OpenIDProvider: Codable, Sendable, Equatable {
    public let id: String
    public let issuer: String
    public let clientID: String
    /// The path of a file holding the client secret; empty for a public client (PKCE only).
    public let clientSecretFile: String
    /// The email domain this provider may vouch for; empty: any.
    public let domain: String
    public let name: LocalizedText

    init(row: SQLRow) {
        id = row.string("id")
        issuer = row.string("issuer")
        clientID = row.string("client_id")
        clientSecretFile = row.string("client_secret_file")
        domain = row.string("domain")
        name = LocalizedText(ar: row.string("name_ar"), en: row.string("name_en"))
    }

    static func all(in context: ActionContext) throws -> [OpenIDProvider] {
        try context.database.fetchAll("SELECT * FROM auth_openid_providers WHERE school_id = :school_id ORDER BY created_at, id")
            .map(OpenIDProvider.init(row:))
    }
}

/// What an issuer address may be: https, or http to this machine only (a test's provider).
enum IssuerAddress {
    static func isAcceptable(_ text: String) -> Bool {
        guard let url = URL(string: text), let host = url.host, !host.isEmpty, url.query == nil, url.fragment == nil else { return false }
        switch url.scheme?.lowercased() {
        case "https": return true
        case "http": return ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host.lowercased())
        default: return false
        }
    }
}

/// `auth oidc add`: a provider for the school. Its issuer and client id pair is unique.
public struct AddOpenIDProvider: Action {
    public struct Input: Codable, Sendable {
        public var issuer: String
        public var clientID: String
        public var clientSecretFile: String?
        public var domain: String?
        public var nameAr: String?
        public var nameEn: String?
        public init(issuer: String, clientID: String, clientSecretFile: String? = nil, domain: String? = nil, nameAr: String? = nil, nameEn: String? = nil) {
            self.issuer = issuer
            self.clientID = clientID
            self.clientSecretFile = clientSecretFile
            self.domain = domain
            self.nameAr = nameAr
            self.nameEn = nameEn
        }
    }

    public static let id = "auth.add-openid-provider"
    public static let permission = AuthPermissions.manageUsers

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        guard IssuerAddress.isAcceptable(input.issuer) else { throw InputError("auth.error.oidc-issuer", ["issuer": TextInput.printable(input.issuer)]) }
        let clientID = input.clientID.trimmingCharacters(in: .whitespaces)
        guard !clientID.isEmpty, clientID.count <= 500, TextInput.problem(in: clientID, maxLength: 500) == nil else {
            throw InputError("auth.error.oidc-client-id")
        }
        if let domain = input.domain, !domain.isEmpty, !Self.isDomain(domain) {
            throw InputError("auth.error.oidc-domain", ["domain": TextInput.printable(domain)])
        }
        for name in [input.nameAr, input.nameEn].compactMap({ $0 }) where TextInput.problem(in: name, maxLength: 100) != nil {
            throw InputError("auth.error.oidc-name")
        }
        let taken: Int = try context.database.fetchValue(
            "SELECT COUNT(*) FROM auth_openid_providers WHERE school_id = :school_id AND issuer = :issuer AND client_id = :client",
            ["issuer": .text(input.issuer), "client": .text(clientID)]) ?? 0
        if taken > 0 { throw InputError("auth.error.oidc-taken", ["issuer": input.issuer]) }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> OpenIDProvider {
        let host = URL(string: input.issuer)?.host ?? input.issuer
        let id = context.newID()
        try context.database.insert(into: "auth_openid_providers", [
            "id": .text(id), "issuer": .text(input.issuer), "client_id": .text(input.clientID.trimmingCharacters(in: .whitespaces)),
            "client_secret_file": .text(input.clientSecretFile ?? ""), "domain": .text((input.domain ?? "").lowercased()),
            "name_ar": .text(input.nameAr.flatMap { $0.isEmpty ? nil : $0 } ?? host), "name_en": .text(input.nameEn.flatMap { $0.isEmpty ? nil : $0 } ?? host),
            "created_at": SQLValue(context.now),
        ])
        context.auditDetail = "\(input.issuer) (\(input.clientID))"
        guard let row = try context.database.fetchOne("SELECT * FROM auth_openid_providers WHERE school_id = :school_id AND id = :id", ["id": .text(id)]) else {
            throw InputError("auth.error.oidc-unknown", ["issuer": input.issuer])
        }
        return OpenIDProvider(row: row)
    }

    static func isDomain(_ text: String) -> Bool {
        let labels = text.lowercased().split(separator: ".", omittingEmptySubsequences: false)
        return text.count <= 253 && labels.count >= 2 && labels.allSatisfy { label in
            !label.isEmpty && label.count <= 63 && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }
    }
}

/// `auth oidc list`: the school's providers, for administrators.
public struct ListOpenIDProviders: Action {
    public struct Input: Codable, Sendable { public init() {} }
    public static let id = "auth.list-openid-providers"
    public static let permission = AuthPermissions.readUsers
    public static let isReadOnly = true
    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> [OpenIDProvider] {
        try OpenIDProvider.all(in: context)
    }
}

/// `auth oidc remove`: people stop signing in through it at once.
public struct RemoveOpenIDProvider: Action {
    public struct Input: Codable, Sendable {
        public var issuer: String
        public init(issuer: String) { self.issuer = issuer }
    }

    public static let id = "auth.remove-openid-provider"
    public static let permission = AuthPermissions.manageUsers
    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> Int {
        try context.database.execute("DELETE FROM auth_openid_providers WHERE school_id = :school_id AND issuer = :issuer", ["issuer": .text(input.issuer)])
        let removed = context.database.changedRowCount
        guard removed > 0 else { throw InputError("auth.error.oidc-unknown", ["issuer": TextInput.printable(input.issuer)]) }
        context.auditDetail = input.issuer
        return removed
    }
}

/// The providers a sign-in may use, for anyone (the sign-in page's buttons, the mobile routes).
public struct SignInProviders: Action {
    public struct Input: Codable, Sendable { public init() {} }
    public static let id = "auth.sign-in-providers"
    public static let permission = AuthPermissions.signIn
    public static let isReadOnly = true
    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> [OpenIDProvider] {
        try OpenIDProvider.all(in: context)
    }
}
