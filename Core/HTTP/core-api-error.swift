import Foundation
import HogwartsBase

/// An error answered over HTTP: `{"error": "<message>", "code": "<STABLE_CODE>", "details": [...]}`.
///
/// The message is in the request's language; the code never changes, so clients branch on it.
public struct APIError: Error, Sendable {
    public let status: Int
    public let code: String
    public let messageKey: String
    public let arguments: [String: String]
    public let details: [APIErrorDetail]
    public var headers: [String: String] = [:]

    public init(status: Int, code: String, messageKey: String, arguments: [String: String] = [:], details: [APIErrorDetail] = []) {
        self.status = status
        self.code = code
        self.messageKey = messageKey
        self.arguments = arguments
        self.details = details
    }

    /// 400 naming the field that is missing, of the wrong type or out of range.
    public static func invalidField(_ field: String, reason: String) -> APIError {
        APIError(status: 400, code: "INVALID_FIELD", messageKey: "kernel.api.invalid-field", arguments: ["field": field, "reason": reason],
                 details: [APIErrorDetail(field: field, reason: reason)])
    }

    public static let malformedJSON = APIError(status: 400, code: "MALFORMED_JSON", messageKey: "kernel.api.malformed-json")
    public static let unauthenticated = APIError(status: 401, code: "UNAUTHENTICATED", messageKey: "kernel.api.unauthenticated")
    public static let invalidToken = APIError(status: 401, code: "INVALID_TOKEN", messageKey: "kernel.api.invalid-token")
    public static let notFound = APIError(status: 404, code: "NOT_FOUND", messageKey: "kernel.api.not-found")
    public static let notAcceptable = APIError(status: 406, code: "NOT_ACCEPTABLE", messageKey: "kernel.api.not-acceptable")
    public static let bodyTooLarge = APIError(status: 413, code: "BODY_TOO_LARGE", messageKey: "kernel.api.body-too-large")
    public static let internalError = APIError(status: 500, code: "INTERNAL_ERROR", messageKey: "kernel.api.internal-error")

    public static func methodNotAllowed(allowed: [String]) -> APIError {
        var error = APIError(status: 405, code: "METHOD_NOT_ALLOWED", messageKey: "kernel.api.method-not-allowed")
        error.headers["Allow"] = allowed.joined(separator: ", ")
        return error
    }

    /// 503: the database did not answer or refused for now; a load balancer or app retries.
    public static var databaseUnavailable: APIError {
        var error = APIError(status: 503, code: "DATABASE_UNAVAILABLE", messageKey: "kernel.error.database-unavailable")
        error.headers["Retry-After"] = "2"
        return error
    }

    public static func tooManyRequests(retryAfter seconds: Int) -> APIError {
        var error = APIError(status: 429, code: "TOO_MANY_REQUESTS", messageKey: "kernel.api.too-many-requests", arguments: ["seconds": String(seconds)])
        error.headers["Retry-After"] = String(seconds)
        return error
    }

    /// A module switched off for the caller's school.
    static func moduleDisabled(_ module: ModuleID) -> APIError {
        APIError(status: 404, code: "MODULE_DISABLED", messageKey: "kernel.api.module-disabled", arguments: ["module": module])
    }

    /// The HTTP face of an error thrown by the kernel or a module: the status follows its exit
    /// status, the code its message key (`students.error.not-found` → `STUDENTS_NOT_FOUND`).
    public static func from(_ error: any Error) -> APIError {
        switch error {
        case let error as APIError: return error
        case let error as DecodingError: return from(decoding: error)
        case KernelError.moduleDisabled(let module, _):
            // The same code whether the route's switch check or the action's own door refused.
            return .moduleDisabled(module)
        case KernelError.storage, KernelError.databaseUnavailable:
            // The engine's text names hosts and ports: it goes to the log, never to the client.
            return .databaseUnavailable
        case let error as any HogwartsError:
            return APIError(status: status(for: error), code: code(for: error.messageKey), messageKey: error.messageKey, arguments: error.messageArguments)
        default: return .internalError
        }
    }

    package static func status(for error: any HogwartsError) -> Int {
        if let kernel = error as? KernelError {
            switch kernel {
            // A foreign school's row or a switched-off module is "not there" for this caller.
            case .outsideSchool, .unknownSchool: return 404
            case .moduleDisabled: return 404
            case .pendingMigrations, .readOnlyDatabase, .storage, .databaseInUse: return 503
            default: break
            }
        }
        switch error.exitStatus {
        case .usage, .invalidData: return 400
        case .notFound: return 404
        case .permissionDenied: return 403
        case .conflict: return 409
        case .unavailable: return 503
        case .failure, .internalError, .ioError, .configuration: return 500
        }
    }

    package static func code(for key: String) -> String {
        key.replacingOccurrences(of: ".error.", with: ".").replacingOccurrences(of: ".", with: "_")
            .replacingOccurrences(of: "-", with: "_").uppercased()
    }

    private static func from(decoding error: DecodingError) -> APIError {
        func field(_ path: [any CodingKey], _ last: (any CodingKey)? = nil) -> String {
            let keys = path + (last.map { [$0] } ?? [])
            let name = keys.map { $0.intValue.map { "[\($0)]" } ?? SnakeCaseKeys.convert($0.stringValue) }.joined(separator: ".")
                .replacingOccurrences(of: ".[", with: "[")
            return name.isEmpty ? "body" : name
        }
        switch error {
        case .keyNotFound(let key, let context): return .invalidField(field(context.codingPath, key), reason: "missing")
        case .valueNotFound(_, let context): return .invalidField(field(context.codingPath), reason: "missing")
        case .typeMismatch(let type, let context): return .invalidField(field(context.codingPath), reason: "expected \(typeName(type))")
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return .malformedJSON }
            return .invalidField(field(context.codingPath), reason: "invalid value")
        @unknown default: return .malformedJSON
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Double.Type: "a number"
        case is Bool.Type: "true or false"
        default: String(describing: type).hasPrefix("Array") ? "an array" : "an object"
        }
    }
}

/// Which field was wrong and why, in `details`.
public struct APIErrorDetail: Codable, Sendable, Equatable {
    public let field: String
    public let reason: String

    public init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }
}

/// The body of every error response.
struct APIErrorBody: Encodable {
    let error: String
    let code: String
    let details: [APIErrorDetail]
}
