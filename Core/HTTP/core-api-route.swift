/// An HTTP method a route answers.
public enum APIMethod: String, Sendable, CaseIterable {
    case get = "GET", post = "POST", put = "PUT", patch = "PATCH", delete = "DELETE"
}

/// Who may call a route: everyone (sign-in, the school list) or only a bearer of an access token.
public enum APIAccess: Sendable {
    case everyone
    case signedIn
}

/// The handler of a route: decode, run an action through the kernel, encode. No domain rule.
public typealias APIHandler = @Sendable (APIRequest) async throws -> APIResponse

/// One HTTP route a module contributes, with what the OpenAPI document says about it.
///
/// Paths use `:name` for parameters (`/api/mobile/students/:studentId`). The kernel answers
/// a signed-in route of a module switched off for the caller's school with 404 `MODULE_DISABLED`.
public struct APIRoute: Sendable {
    public let method: APIMethod
    public let path: String
    public let summary: String
    public let access: APIAccess
    public let query: [APIParameter]
    public let body: APISchema?
    /// The success status and the shape of its body.
    public let status: Int
    /// Other success statuses with the same body (200 for a conversation that already existed, beside 201).
    public let otherStatuses: [Int]
    /// Request headers the route reads besides the kernel's own (Authorization, Accept-Language, Idempotency-Key).
    public let headers: [APIParameter]
    public let response: APISchema
    /// The success body's media type, for the OpenAPI document.
    public let contentType: String
    /// Sign-in routes are limited per client address (429 with `Retry-After`).
    public let limitedPerAddress: Bool
    public let handler: APIHandler

    public init(_ method: APIMethod, _ path: String, summary: String, access: APIAccess = .signedIn, query: [APIParameter] = [],
                headers: [APIParameter] = [], body: APISchema? = nil, status: Int = 200, otherStatuses: [Int] = [], response: APISchema,
                contentType: String = "application/json", limitedPerAddress: Bool = false, handler: @escaping APIHandler) {
        self.method = method
        self.path = path
        self.summary = summary
        self.access = access
        self.query = query
        self.body = body
        self.status = status
        self.otherStatuses = otherStatuses
        self.headers = headers
        self.response = response
        self.contentType = contentType
        self.limitedPerAddress = limitedPerAddress
        self.handler = handler
    }

    /// The path's parameter names, in order: `studentId` for `/students/:studentId`.
    public var pathParameters: [String] {
        path.split(separator: "/").filter { $0.hasPrefix(":") }.map { String($0.dropFirst()) }
    }
}

/// A query parameter, for validation messages and the OpenAPI document.
public struct APIParameter: Sendable {
    public let name: String
    public let schema: APISchema
    public let required: Bool

    public init(_ name: String, _ schema: APISchema, required: Bool = false) {
        self.name = name
        self.schema = schema
        self.required = required
    }

    /// `page` and `per_page`, on every list route.
    public static let paging: [APIParameter] = [
        APIParameter("page", .integer(minimum: 1)),
        APIParameter("per_page", .integer(minimum: 1, maximum: APIPaging.maximumPerPage)),
    ]
}
