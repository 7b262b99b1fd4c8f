import Hummingbird
import HogwartsKernel

/// Who is calling, found once per request before any route runs (`APIAuthenticator`): what a
/// route then admits as its `APIAccess` requires (`RouteDispatcher`).
public enum APICaller: Sendable {
    /// No `Authorization` header.
    case anonymous
    case verified(VerifiedAccess)
    /// A token came and was refused (expired, signed out, malformed): what a signed-in route answers.
    case refused(any Error)
}

/// Puts the caller on the request context: the bearer token verified, or why it was not.
struct APIAuthenticator: RouterMiddleware {
    typealias Context = APIContext
    let tokens: AccessTokens

    func handle(_ request: Request, context: APIContext, next: (Request, APIContext) async throws -> Response) async throws -> Response {
        var context = context
        context.caller = await caller(of: request)
        return try await next(request, context)
    }

    private func caller(of request: Request) async -> APICaller {
        guard let header = request.headers[.authorization], !header.isEmpty else { return .anonymous }
        let token = header.hasPrefix("Bearer ") ? String(header.dropFirst(7)) : header
        do {
            return .verified(try await tokens.verifyAccess(token))
        } catch {
            return .refused(error)
        }
    }
}
