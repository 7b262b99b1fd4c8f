import Foundation
import HogwartsKernel

/// A response a handler has already encoded: status, JSON body and any extra headers; or a
/// body written as it comes (`stream`, for Server-Sent Events).
public struct APIResponse: Sendable {
    public let status: Int
    public let body: Data
    public var headers: [String: String]
    public var stream: APIStreamBody?

    public init(status: Int, body: Data, headers: [String: String] = [:]) {
        self.status = status
        self.body = body
        self.headers = headers
    }

    /// A body that never ends by itself: the chunks are written as they come.
    public static func stream(_ body: APIStreamBody, contentType: String) -> APIResponse {
        // `X-Accel-Buffering: no`: nginx (deploy/nginx) passes each chunk on instead of buffering the stream.
        var response = APIResponse(status: 200, body: Data(), headers: ["Content-Type": contentType, "Cache-Control": "no-store", "X-Accel-Buffering": "no"])
        response.stream = body
        return response
    }

    /// Encodes `value` in the contract's key style (snake_case unless the route says camelCase).
    public static func json(_ value: some Encodable, status: Int = 200, keys: APIKeyStyle = .snakeCase) throws -> APIResponse {
        APIResponse(status: status, body: try APIJSONWriter.encode(value, keys: keys))
    }

    /// `{"success": true}`, what the contract answers for actions with nothing else to say.
    public static func success() throws -> APIResponse {
        try json(["success": true])
    }
}

/// The chunks of a streamed body, and what to do once the client has gone or the server stops.
public struct APIStreamBody: Sendable {
    public let chunks: AsyncStream<Data>
    public let close: @Sendable () -> Void

    public init(chunks: AsyncStream<Data>, close: @escaping @Sendable () -> Void) {
        self.chunks = chunks
        self.close = close
    }
}

/// One page of a list: `{data, total, page, per_page}`.
public struct APIPage<Item: Encodable & Sendable>: Encodable, Sendable {
    public let data: [Item]
    public let total: Int
    public let page: Int
    public let perPage: Int

    public init(data: [Item], total: Int, paging: APIPaging) {
        self.data = data
        self.total = total
        page = paging.page
        perPage = paging.perPage
    }

    enum CodingKeys: String, CodingKey {
        case data, total, page
        case perPage = "per_page"
    }
}

/// A page's shape for `APISchema.of`.
extension APIPage: Decodable where Item: Decodable {}

/// `?page=&per_page=`, checked: whole numbers, `per_page` at most 100.
public struct APIPaging: Sendable, Equatable {
    public static let maximumPerPage = 100
    public let page: Int
    public let perPage: Int

    public init(page: Int, perPage: Int) {
        self.page = page
        self.perPage = perPage
    }

    /// Rows to skip before this page.
    public var offset: Int { (page - 1) * perPage }
}

