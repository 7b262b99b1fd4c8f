import Foundation
import Hummingbird
import HTTPTypes
import NIOCore
import ServiceLifecycle
import HogwartsBase
import HogwartsKernel

/// Takes one request to one route: the caller as its access requires (`APIAuthenticator` found
/// who it is), whether the route's module is on for their school, the body within its limit,
/// then the handler, whose answer it writes as is. Who may run what is the kernel's
/// (`Kernel.gate`), checked by each action the handler runs.
package struct RouteDispatcher: Sendable {
    let server: APIServer
    let module: ModuleID?
    let route: APIRoute

    func respond(to request: Request, context: APIContext) async throws -> Response {
        var request = request
        let language = Self.language(request.headers[.acceptLanguage])
        context.coreContext.endpointPath.value = route.path
        let clientAddress = context.clientAddress(of: request)
        if route.limitedPerAddress, let wait = try await server.signInLimiter.admit(clientAddress) {
            throw APIError.tooManyRequests(retryAfter: wait)
        }
        let access = try admit(context.caller)
        context.facts.schoolID = access?.schoolID
        if let module, let access, try await !server.switches.isEnabled(module, in: access.schoolID) {
            throw APIError.moduleDisabled(module)
        }
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: APIServer.maximumBodySize)
        } catch is NIOTooManyBytesError {
            throw APIError.bodyTooLarge
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw APIError.bodyTooLarge
        }
        let apiRequest = APIRequest(
            kernel: server.kernel, principal: access?.principal ?? .anonymous, schoolID: access?.schoolID, access: access,
            language: language, parameters: Self.parameters(context), query: Self.query(request),
            body: Data(buffer: body), headers: Self.headers(request), clientAddress: clientAddress,
            tokens: server.tokens, metrics: server.metrics, threadPool: server.threadPool)
        let answer = try await route.handler(apiRequest)
        return Self.response(answer)
    }

    /// A signed-in route needs a valid access token; a public one ignores a missing or refused one.
    private func admit(_ caller: APICaller) throws -> VerifiedAccess? {
        switch caller {
        case .verified(let access):
            return access
        case .anonymous:
            if route.access == .signedIn { throw APIError.unauthenticated }
            return nil
        case .refused(let error):
            if route.access == .signedIn { throw error }
            return nil
        }
    }

    package static func response(_ answer: APIResponse) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        for (name, value) in answer.headers {
            if let field = HTTPField.Name(name) { headers[field] = value }
        }
        if let stream = answer.stream {
            return Response(status: .init(code: answer.status), headers: headers, body: streamed(stream))
        }
        return Response(status: .init(code: answer.status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
    }

    /// Writes chunks until the stream ends, the client goes (a write fails) or the server begins
    /// to stop (a stream would otherwise hold a graceful shutdown open for ever).
    private static func streamed(_ stream: APIStreamBody) -> ResponseBody {
        ResponseBody { writer in
            defer { stream.close() }
            for await chunk in stream.chunks.cancelOnGracefulShutdown() {
                try await writer.write(ByteBuffer(bytes: chunk))
            }
            try await writer.finish(nil)
        }
    }

    /// `ar` unless the client prefers English (`Accept-Language: en-GB,en;q=0.9`).
    static func language(_ header: String?) -> Language {
        guard let header else { return .default }
        var best: (language: Language, weight: Double)?
        for part in header.split(separator: ",") {
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = pieces.first?.lowercased(), let language = Language(rawValue: String(tag.prefix(2))) else { continue }
            let weight = pieces.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            if weight > 0, weight > (best?.weight ?? 0) { best = (language, weight) }
        }
        return best?.language ?? .default
    }

    private static func parameters(_ context: APIContext) -> [String: String] {
        var result: [String: String] = [:]
        for (name, value) in context.parameters { result[String(name)] = String(value).removingPercentEncoding ?? String(value) }
        return result
    }

    private static func query(_ request: Request) -> [String: String] {
        var result: [String: String] = [:]
        for (name, value) in request.uri.queryParameters where result[String(name)] == nil {
            result[String(name)] = String(value)
        }
        return result
    }

    private static func headers(_ request: Request) -> [String: String] {
        var result: [String: String] = [:]
        for field in request.headers { result[field.name.canonicalName] = field.value }
        return result
    }
}
