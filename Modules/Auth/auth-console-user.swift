import Core
import Foundation

/// One account's jobs, opened from the Users page: mail a password-reset code, lift a lock after
/// failed sign-ins, change the role, suspend (after a confirmation) or reinstate. Each is Auth's
/// own action (`auth.request-password-reset`, `auth.unlock-user`, `auth.change-role`,
/// `auth.set-suspended`), audited by it as for the CLI; the page only asks and says what happened.
enum AuthConsoleUser {
    static let page = ConsolePage("user", title: Words.title, permission: AuthPermissions.manageUsers, inMenu: false) { console in
        let email = (console.isPost ? console.form.value("email") : console.query["email"]) ?? ""
        guard let user = try await find(email, console) else {
            return .page(title: console.say(Words.title), body: Templates.missing.render(console.common.merging([
                "text": console.say(Words.missing), "back": console.pagePath("auth", "users"), "backText": console.say(Words.back),
            ]) { $1 }))
        }
        guard console.isPost, user.id != console.principal.userID else { return render(user, console) }
        let job = console.form.value("do") ?? ""
        if job == "suspend" && console.form.value("confirm") != "yes" { return render(user, console, confirming: true) }
        do {
            try await perform(job, on: user, console)
        } catch let refusal as Refusal {
            return render(user, console, error: console.say(refusal.words, ["minutes": refusal.minutes]))
        } catch let error where !(error is CancellationError) {
            return render(user, console, error: console.message(for: error))
        }
        return .redirect(console.pagePath("auth", "user", query: [("email", user.email), ("done", job)]))
    }

    /// A refusal the page words itself (the actions' own refusals come with their words).
    struct Refusal: Error {
        let words: LocalizedText
        var minutes = ""
    }

    /// The account by its exact email, through `auth.list-users`.
    static func find(_ email: String, _ console: ConsoleRequest) async throws -> User? {
        let wanted = UserAccounts.normalize(email)
        guard !wanted.isEmpty, wanted.count <= UserAccounts.maximumEmailLength else { return nil }
        return try await console.run(ListUsers.self, .init(search: wanted, limit: 5)).first { $0.email == wanted }
    }

    static func perform(_ job: String, on user: User, _ console: ConsoleRequest) async throws {
        switch job {
        case "reset":
            // The same limit on codes to one address as "Forgot your password?" keeps.
            let key = PasswordResetPolicy.emailKey(user.email)
            if let wait = try await console.offload(on: .writes, { try $0.admit(key, limit: PasswordResetPolicy.perEmail) }) {
                throw Refusal(words: Words.resetWait, minutes: String(max(1, (wait + 59) / 60)))
            }
            guard try await console.run(RequestPasswordReset.self, .init(email: user.email)) else { throw Refusal(words: Words.noCode) }
        case "unlock":
            _ = try await console.run(UnlockUser.self, UserChange(email: user.email))
        case "role":
            _ = try await console.run(ChangeRole.self, UserChange(email: user.email, role: Role(rawValue: console.form.value("role") ?? "")))
        case "suspend", "reinstate":
            _ = try await console.run(SetSuspended.self, UserChange(email: user.email, suspended: job == "suspend"))
        default:
            throw Refusal(words: Words.unknownJob)
        }
    }

    static func render(_ user: User, _ console: ConsoleRequest, confirming: Bool = false, error: String = "") -> ConsoleResponse {
        let suspended = user.status == .suspended
        let locked = user.lockedUntil.map { $0 > Date() } ?? false
        let arguments = ["name": user.displayName, "email": user.email]
        let done = console.query["done"].flatMap { job in Words.done.first { $0.0 == job }?.1 }.map { console.say($0, arguments) } ?? ""
        let values: [String: Any] = [
            "action": console.pagePath("auth", "user"), "email": user.email, "name": user.displayName,
            "back": console.pagePath("auth", "users", query: [("search", user.email)]), "backText": console.say(Words.back),
            "notice": done, "error": error, "me": user.id == console.principal.userID, "meText": console.say(Words.yourOwn),
            "emailLabel": console.say(Words.email), "roleLabel": console.say(Words.role), "statusLabel": console.say(Words.status),
            "roleText": console.localizer("console.role.\(user.role.rawValue)"), "status": user.status.rawValue,
            "statusText": console.say(suspended ? Words.suspended : locked ? Words.locked : Words.active, ["time": user.lockedUntil.map(console.schoolTime) ?? ""]),
            "roles": Role.allCases.map { ["value": $0.rawValue, "label": console.localizer("console.role.\($0.rawValue)"), "selected": $0 == user.role] },
            "saveRole": console.say(Words.saveRole), "roleHint": console.say(Words.roleHint),
            "resetHeading": console.say(Words.resetHeading), "resetHint": console.say(Words.resetHint, arguments), "reset": console.say(Words.reset),
            "mayReset": !suspended,
            "unlockHeading": console.say(Words.unlockHeading), "unlockHint": console.say(locked ? Words.unlockHint : Words.notLocked),
            "unlock": console.say(Words.unlock),
            "statusHeading": console.say(suspended ? Words.reinstateHeading : Words.suspendHeading),
            "statusHint": console.say(suspended ? Words.reinstateHint : Words.suspendHint), "do": suspended ? "reinstate" : "suspend",
            "toggle": console.say(suspended ? Words.reinstate : Words.suspend, arguments),
            "confirming": confirming, "confirmText": console.say(Words.confirm, arguments), "confirmYes": console.say(Words.confirmYes, arguments),
            "cancel": console.say(Words.cancel), "cancelHref": console.pagePath("auth", "user", query: [("email", user.email)]),
        ]
        return .page(title: console.say(Words.heading, arguments), body: Templates.page.render(console.common.merging(values) { $1 }))
    }
}
