import Foundation
import Hummingbird
import Logging
import HogwartsKernel

/// Around every request: one log line (request id, method, route, status, duration, school;
/// never a password or token), the metrics, and every error written in the one JSON shape.
package struct APIObservationMiddleware: RouterMiddleware {
    package typealias Context = APIContext
    let kernel: Kernel
    let metrics: APIMetrics
    let methods: RouteMethods

    package func handle(_ request: Request, context: APIContext, next: (Request, APIContext) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response: Response
        do {
            response = try await next(request, context)
        } catch {
            response = errorResponse(error, request: request, context: context)
        }
        let duration = ContinuousClock.now - start
        let route = context.endpointPath ?? "unmatched"
        metrics.recordRequest(route: route, method: request.method.rawValue, status: response.status.code, duration: duration)
        context.logger.info("request", metadata: [
            "method": "\(request.method.rawValue)", "route": "\(route)", "status": "\(response.status.code)",
            "school": "\(context.facts.schoolID ?? "-")", "client": "\(context.clientAddress(of: request))",
            "duration_ms": "\(Self.milliseconds(duration))",
        ])
        return response
    }

    /// `12.34`: milliseconds with two decimals, rounded, in integer arithmetic (`String(format:)`
    /// cost a hundredth of a bulk write's CPU).
    package static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let hundredths = max(0, seconds * 100_000 + (attoseconds + 5_000_000_000_000) / 10_000_000_000_000)
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    private func errorResponse(_ error: any Error, request: Request, context: APIContext) -> Response {
        var apiError: APIError
        if let error = error as? HTTPError {
            let allowed = methods.allowed(for: request.uri.path)
            apiError = switch error.status.code {
            case 404 where !allowed.isEmpty: .methodNotAllowed(allowed: allowed)
            case 404: .notFound
            case 405: .methodNotAllowed(allowed: allowed)
            case 413: .bodyTooLarge
            case 400..<500: APIError(status: error.status.code, code: "BAD_REQUEST", messageKey: "kernel.api.bad-request")
            default: .internalError
            }
        } else {
            apiError = APIError.from(error)
        }
        if apiError.status >= 500 {
            context.logger.error("request failed", metadata: ["error": "\(error)"])
        }
        let language = RouteDispatcher.language(request.headers[.acceptLanguage])
        let localizer = Localizer(language: language, catalog: kernel.registry.catalog, surface: .web)
        let body = APIErrorBody(error: localizer(apiError.messageKey, apiError.arguments), code: apiError.code, details: apiError.details)
        let data = (try? JSONEncoder().encode(body)) ?? Data("{\"error\":\"internal error\",\"code\":\"INTERNAL_ERROR\",\"details\":[]}".utf8)
        var headers = apiError.headers
        headers["Content-Language"] = language.rawValue
        return RouteDispatcher.response(APIResponse(status: apiError.status, body: data, headers: headers))
    }
}
