import Foundation
import HTTPTypes
import Hummingbird
import HogwartsKernel
import HogwartsHTTP

/// `GET /live`: the signed-in person's live events for the console's script, the same stream
/// `/api/v1/live` gives a token holder, opened with the session cookie. A stream lasts a few
/// minutes and the browser's EventSource comes back with its last event id, so the session is
/// checked again on each return: after sign-out or expiry the return is refused (401) and the
/// script stops listening, having missed nothing while the session was alive.
struct ConsoleLive {
    let shell: ConsoleShell

    /// How long one stream lasts before the browser must show its session again.
    static let turn: TimeInterval = 300

    func stream(_ request: Request, _ context: APIContext) async throws -> Response {
        let call = try await ConsoleCall(request, context, alwaysSecure: shell.alwaysSecure)
        guard let (console, _) = try await shell.session(for: call, context: context) else {
            return Response(status: .unauthorized, headers: ConsoleShell.securityHeaders)
        }
        // A malformed id (not one this stream sent) starts afresh rather than failing a reconnect.
        let lastEventID = (try? LiveHub.eventID(HTTPField.Name("Last-Event-ID").flatMap { request.headers[$0] })) ?? nil
        let body = try await shell.server.live.open(school: console.school.id, user: console.principal.userID, language: console.language,
                                                    lastEventID: lastEventID, until: shell.kernel.now().addingTimeInterval(Self.turn))
        var response = RouteDispatcher.response(.stream(body, contentType: "text/event-stream; charset=utf-8"))
        for field in ConsoleShell.securityHeaders where response.headers[field.name] == nil { response.headers.append(field) }
        return response
    }
}

/// A count a menu entry shows beside its name (unread notifications), kept up to date in an open
/// page by the live events of `liveKind`: each one adds one until the page is loaded again.
public struct ConsoleBadge: Sendable {
    public let liveKind: String
    /// Read after the count by a screen reader ("3 unread").
    public let label: LocalizedText
    public let count: @Sendable (ConsoleRequest) async throws -> Int

    public init(liveKind: String, label: LocalizedText, count: @escaping @Sendable (ConsoleRequest) async throws -> Int) {
        self.liveKind = liveKind
        self.label = label
        self.count = count
    }
}
