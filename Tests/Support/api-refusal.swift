import Foundation

/// How an error answer reads once the id the caller named is taken out: a refusal of a row
/// that exists but is not the caller's must read exactly like the refusal of one that does not
/// exist, so status, code and text are compared with each answer's own id blanked.
public struct APIRefusal: Equatable, Sendable, CustomStringConvertible {
    public let status: Int
    public let code: String?
    public let error: String?

    /// `response`'s refusal with every occurrence of `asked` (the id in the path or body) blanked.
    public init(_ response: APITestResponse, asked: [String]) {
        status = response.status
        code = response.code
        var error = response.object["error"] as? String
        for id in asked where !id.isEmpty { error = error?.replacingOccurrences(of: id, with: "<id>") }
        self.error = error
    }

    public var description: String { "\(status) \(code ?? "-") \(error ?? "-")" }
}

extension APITestResponse {
    /// This answer's refusal with `asked` blanked (see `APIRefusal`).
    public func refusal(asked: String...) -> APIRefusal { APIRefusal(self, asked: asked) }

    /// This answer's refusal with each of `asked` blanked.
    public func refusal(asked: [String]) -> APIRefusal { APIRefusal(self, asked: asked) }
}
