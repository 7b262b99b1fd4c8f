import Core
import Foundation

/// A person's own profile: their account, what they wrote about themself, the language they
/// read the apps in and their school (PROF-001..003).
public struct Profile: Codable, Sendable {
    public let user: User
    public let bio: String?
    /// Their choice, else the school's language.
    public let language: Language
    public let school: School
}

/// The longest biography a profile keeps (the web app's limit).
public enum ProfileLimits {
    public static let bio = 500
}

extension Profile {
    /// The signed-in person's own account, active: nobody reads or edits another's profile here.
    static func load(_ context: ActionContext) throws -> Profile {
        guard context.principal.schoolID == context.school.id,
              let row = try context.database.fetchOne("SELECT * FROM auth_users WHERE school_id = :school_id AND id = :id",
                                                      ["id": .text(context.principal.userID)]) else {
            throw AuthError.noAccount
        }
        let user = User(row: row)
        guard user.status == .active else { throw AuthError.noAccount }
        let language = (row["language"] as String?).flatMap(Language.init(rawValue:)) ?? context.school.language
        return Profile(user: user, bio: row["bio"], language: language, school: context.school)
    }
}

/// The caller's own profile.
public struct ShowProfile: Action {
    public struct Input: Codable, Sendable {
        public init() {}
    }

    public static let id = "auth.show-profile"
    public static let permission = AuthPermissions.profile
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> Profile {
        try Profile.load(context)
    }
}

/// Changes the caller's own name, biography or language; a field left out stays as it is, an
/// empty biography removes it.
public struct UpdateProfile: Action {
    public struct Input: Codable, Sendable {
        public var displayName: String?
        public var bio: String?
        public var language: Language?
        public init(displayName: String? = nil, bio: String? = nil, language: Language? = nil) {
            self.displayName = displayName
            self.bio = bio
            self.language = language
        }
    }

    public static let id = "auth.update-profile"
    public static let permission = AuthPermissions.profile

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        if let name = input.displayName {
            let field = context.localizer("auth.field.profile-name")
            try TextInput.check(name, field: field, maxLength: TextLimit.name)
            guard !name.trimmingCharacters(in: .whitespaces).isEmpty else { throw InputError("auth.error.text-required", ["field": field]) }
        }
        if let bio = input.bio {
            try TextInput.check(bio, field: context.localizer("auth.field.bio"), maxLength: ProfileLimits.bio, multiline: true)
        }
        _ = try Profile.load(context)
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Profile {
        let profile = try Profile.load(context)
        var changed: [String] = []
        if let name = input.displayName?.trimmingCharacters(in: .whitespaces) {
            try context.database.execute("UPDATE auth_users SET display_name = :value WHERE school_id = :school_id AND id = :id",
                                         ["value": .text(name), "id": .text(profile.user.id)])
            changed.append("name")
        }
        if let bio = input.bio {
            let trimmed = bio.trimmingCharacters(in: .whitespacesAndNewlines)
            try context.database.execute("UPDATE auth_users SET bio = :value WHERE school_id = :school_id AND id = :id",
                                         ["value": trimmed.isEmpty ? .null : .text(trimmed), "id": .text(profile.user.id)])
            changed.append("bio")
        }
        if let language = input.language {
            try context.database.execute("UPDATE auth_users SET language = :value WHERE school_id = :school_id AND id = :id",
                                         ["value": .text(language.rawValue), "id": .text(profile.user.id)])
            changed.append("language")
        }
        context.auditDetail = "\(profile.user.email): " + (changed.isEmpty ? "nothing changed" : changed.joined(separator: ", "))
        return try Profile.load(context)
    }
}
