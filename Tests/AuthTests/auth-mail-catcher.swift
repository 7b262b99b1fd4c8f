import Auth
import Core
import Foundation
import Synchronization

/// Stands where the mail module would: keeps every mail Auth asks to send, as the event arrives.
final class MailCatcher: Sendable {
    private let caught = Mutex<[AccountMailRequested]>([])

    var mails: [AccountMailRequested] { caught.withLock { $0 } }

    func add(_ mail: AccountMailRequested) { caught.withLock { $0.append(mail) } }

    /// Waits up to 60 s for at least `count` mails: the reset route mails after it answers, on the
    /// password lane, which a loaded machine running many suites' sign-ins keeps busy (10 s was
    /// once too short with 86 tests running beside it).
    /// `within`: a shorter wait for a mail that must not come.
    func waitFor(_ count: Int, within seconds: TimeInterval = 180) async throws -> [AccountMailRequested] {
        let deadline = Date().addingTimeInterval(seconds)
        while mails.count < count, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        return mails
    }

    /// The 6-digit code in a mail's text.
    static func code(in mail: AccountMailRequested) -> String? {
        mail.text.firstMatch(of: /\b[0-9]{6}\b/).map { String($0.output) }
    }
}

/// A module with nothing but a handler for Auth's mail event.
struct MailCatcherModule: AppModule {
    let catcher: MailCatcher
    let id: ModuleID = "mailcatcher"
    let version = SemanticVersion(1, 0, 0)
    var dependencies: [ModuleDependency] { [ModuleDependency("auth", "^1.0.0")] }
    var strings: StringCatalog { StringCatalog(ar: [:], en: [:]) }
    var eventHandlers: [EventHandler] {
        let catcher = catcher
        return [EventHandler("mailcatcher.catch", on: AccountMailRequested.self) { event, _ in catcher.add(event) }]
    }
}
