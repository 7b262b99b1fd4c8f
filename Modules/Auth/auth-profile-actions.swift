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
    /// After an update carrying `updatedAt` times: the fields whose newer server value was kept
    /// (`displayName`, `bio`, `language`). Absent from a plain read.
    public var keptFromServer: [String]?
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
///
/// Offline edits (seed 000 §9.2: last write wins by `updatedAt`, per field): each field may say
/// when it was edited on the phone. It is written only when that is not older than the time
/// stored for the field; a stale field is no error, the others still apply and the answer names
/// it in `keptFromServer`. No `updatedAt` (the CLI, the web API) means now.
public struct UpdateProfile: Action {
    public struct Input: Codable, Sendable {
        public var displayName: String?
        public var bio: String?
        public var language: Language?
        /// When each field was edited, by the client's clock (clamped to the server's now).
        public var updatedAt: ProfileFieldTimes?
        /// The sync client that made the edit: of two edits at the same instant, the higher id wins.
        public var clientID: String?
        public init(displayName: String? = nil, bio: String? = nil, language: Language? = nil,
                    updatedAt: ProfileFieldTimes? = nil, clientID: String? = nil) {
            self.displayName = displayName
            self.bio = bio
            self.language = language
            self.updatedAt = updatedAt
            self.clientID = clientID
        }

        enum CodingKeys: String, CodingKey {
            case displayName, bio, language, updatedAt
            case clientID = "clientId"
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
        if let clientID = input.clientID { try TextInput.check(clientID, field: "clientId", maxLength: TextLimit.name) }
        _ = try Profile.load(context)
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Profile {
        let profile = try Profile.load(context)
        let clock = try ProfileFieldClock(user: profile.user.id, clientID: input.clientID, context)
        let times = input.updatedAt ?? ProfileFieldTimes()
        var changed: [String] = []
        var kept: [String] = []
        /// Whether a given field is written: newer than what is stored (and then stamped), else kept.
        func wins(_ field: ProfileField, _ given: Bool, at time: Date?) throws -> Bool {
            guard given else { return false }
            if try clock.wins(field, at: time) { return true }
            kept.append(field.rawValue)
            return false
        }
        if try wins(.displayName, input.displayName != nil, at: times.displayName),
           let name = input.displayName?.trimmingCharacters(in: .whitespaces) {
            try context.database.execute("UPDATE auth_users SET display_name = :value WHERE school_id = :school_id AND id = :id",
                                         ["value": .text(name), "id": .text(profile.user.id)])
            changed.append("name")
        }
        if try wins(.bio, input.bio != nil, at: times.bio), let bio = input.bio {
            let trimmed = bio.trimmingCharacters(in: .whitespacesAndNewlines)
            try context.database.execute("UPDATE auth_users SET bio = :value WHERE school_id = :school_id AND id = :id",
                                         ["value": trimmed.isEmpty ? .null : .text(trimmed), "id": .text(profile.user.id)])
            changed.append("bio")
        }
        if try wins(.language, input.language != nil, at: times.language), let language = input.language {
            try context.database.execute("UPDATE auth_users SET language = :value WHERE school_id = :school_id AND id = :id",
                                         ["value": .text(language.rawValue), "id": .text(profile.user.id)])
            changed.append("language")
        }
        context.auditDetail = "\(profile.user.email): " + (changed.isEmpty ? "nothing changed" : changed.joined(separator: ", "))
            + (kept.isEmpty ? "" : "; kept newer: " + kept.joined(separator: ", "))
        var updated = try Profile.load(context)
        if input.updatedAt != nil { updated.keptFromServer = kept }
        return updated
    }
}
