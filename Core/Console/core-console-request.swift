import Foundation
import NIOPosix
import HogwartsBase
import HogwartsKernel
import HogwartsHTTP

/// What a console page receives: who is signed in, in which school and language, the query and
/// the submitted form (already checked against the CSRF token), and a way to run actions.
public struct ConsoleRequest: Sendable {
    public let kernel: Kernel
    public let principal: Principal
    public let school: School
    public let language: Language
    /// The path without its query, such as `/m/attendance/register`.
    public let path: String
    public let isPost: Bool
    public let query: [String: String]
    public let form: ConsoleForm
    /// The files a multipart form sent (`ConsoleMultipart`), none for any other request.
    public let uploads: [ConsoleUpload]
    /// Modules in force for the school, read for this request.
    public let enabledModules: Set<ModuleID>
    /// The hidden field every form of this session carries.
    public let csrfToken: String
    let catalog: StringCatalog
    let threadPool: NIOThreadPool
    let metrics: APIMetrics

    /// Messages in the request's language: the modules' catalogs and the console's own.
    public var localizer: Localizer { Localizer(language: language, catalog: catalog, surface: .web) }

    /// Runs an action as the signed-in person in their school, on the kernel's threads (the kernel
    /// is synchronous and never runs on an event loop; writes on `ActionLanes`): the same door as
    /// the CLI and the API.
    /// With a `requestID` (a form's one-time id), a second send of the same form returns the
    /// first result and applies nothing again, as the API's `Idempotency-Key` does.
    public func run<A: Action>(_ action: A.Type, _ input: A.Input, requestID: String? = nil) async throws -> A.Output {
        let kernel = kernel
        let principal = principal
        let school = school.id
        let language = language
        do {
            let output = try await ActionLanes.pool(ActionLanes.lane(for: action), reads: threadPool).runIfActive {
                try kernel.run(action, input, as: principal, in: school, requestID: requestID, language: language)
            }
            metrics.recordAction(A.id, succeeded: true)
            return output
        } catch {
            metrics.recordAction(A.id, succeeded: false)
            throw error
        }
    }

    /// Other synchronous kernel work, off the event loop, on its kind of work's lane (work that
    /// writes on the writers' lane, as a write action would run).
    @discardableResult
    public func offload<T: Sendable>(on lane: ActionLane = .reads, _ work: @escaping @Sendable (Kernel) throws -> T) async throws -> T {
        let kernel = kernel
        return try await ActionLanes.pool(lane, reads: threadPool).runIfActive { try work(kernel) }
    }

    /// Whether the person's role holds a permission (what the kernel will check when they act).
    public func may(_ permission: Permission) -> Bool {
        kernel.registry.policy.scope(of: principal.role, for: permission) != nil
    }

    /// Whether the person may open the page: they hold its permission, at one of its scopes if it names them.
    public func may(open page: ConsolePage) -> Bool {
        guard let scope = kernel.registry.policy.scope(of: principal.role, for: page.permission) else { return false }
        return page.scopes.map { $0.contains(scope) } ?? true
    }

    /// The address of a module's page, `/m/<module>/<page>`, with an optional query.
    /// A moment as the school's clock shows it, `YYYY-MM-DD HH:MM` (message and notification
    /// times), isolated left to right so Arabic around it does not reorder it (`ConsoleDates`).
    public func schoolTime(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: school.timeZone) ?? .gmt
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return ConsoleDates.isolated(String(format: "%04d-%02d-%02d %02d:%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0, parts.minute ?? 0))
    }

    public func pagePath(_ module: ModuleID, _ page: String, query: [(String, String)] = []) -> String {
        ConsoleForm.path("/m/\(module)/\(page)", query: query)
    }

    /// A module's own words in the request's language, `{name}` placeholders filled in.
    public func say(_ text: LocalizedText, _ arguments: [String: String] = [:]) -> String {
        text.text(in: language, arguments)
    }

    /// One line saying what went wrong and what to do next, in the request's language.
    public func message(for error: any Error) -> String {
        if let error = error as? APIError { return localizer(error.messageKey, error.arguments) }
        return localizer.message(for: KernelError.publicFace(of: error))
    }

    /// Values every template may use: the CSRF token, the language and direction.
    public var common: [String: Any] {
        ["csrf": csrfToken, "lang": language.rawValue, "dir": language.isRightToLeft ? "rtl" : "ltr"]
    }
}

/// A form as the browser sent it (`application/x-www-form-urlencoded`), or a query string.
public struct ConsoleForm: Sendable {
    public let pairs: [(String, String)]

    public init(pairs: [(String, String)]) { self.pairs = pairs }

    init(encoded: String) {
        pairs = encoded.split(separator: "&").compactMap { part in
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = pieces.first.map(String.init).flatMap(Self.decode), !name.isEmpty else { return nil }
            return (name, pieces.count > 1 ? Self.decode(String(pieces[1])) ?? "" : "")
        }
    }

    /// The first value of a field, nil when absent.
    public func value(_ name: String) -> String? { pairs.first { $0.0 == name }?.1 }

    /// Every value of a field (checkboxes), in order.
    public func values(_ name: String) -> [String] { pairs.filter { $0.0 == name }.map(\.1) }

    /// Fields whose names start with `prefix`, the prefix removed: `status.GR-1` gives `GR-1`.
    public func fields(prefixed prefix: String) -> [(String, String)] {
        pairs.filter { $0.0.hasPrefix(prefix) }.map { (String($0.0.dropFirst(prefix.count)), $0.1) }
    }

    private static func decode(_ text: String) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    /// A path with its query, each part percent-encoded.
    public static func path(_ path: String, query: [(String, String)]) -> String {
        guard !query.isEmpty else { return path }
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let encoded = query.map { name, value in
            "\(name.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
        }
        return path + "?" + encoded.joined(separator: "&")
    }
}
