import Foundation
import NIOPosix
import HogwartsBase
import HogwartsKernel

/// What a route handler receives: who is calling, in which school, in which language, and the
/// request's parameters, query and body, with checked readers that answer 400 naming the field.
public struct APIRequest: Sendable {
    public let kernel: Kernel
    /// The token's principal; `Principal.anonymous` on a public route without a token.
    public let principal: Principal
    /// The token's school, always: no header or query parameter changes it.
    public let schoolID: SchoolID?
    /// The verified access token, on a signed-in request (to sign out its family).
    public let access: VerifiedAccess?
    public let language: Language
    public let parameters: [String: String]
    public let query: [String: String]
    public let body: Data
    public let headers: [String: String]
    /// The caller's address, for the per-address sign-in limit.
    public let clientAddress: String
    /// Signs and checks the API's tokens.
    public let tokens: AccessTokens
    public let metrics: APIMetrics
    let threadPool: NIOThreadPool

    /// Messages in the request's language.
    public var localizer: Localizer { Localizer(language: language, catalog: kernel.registry.catalog, surface: .web) }

    /// The caller's school, or 401 on a route that was reached without a token.
    public func requireSchool() throws -> SchoolID {
        guard let schoolID else { throw APIError.unauthenticated }
        return schoolID
    }

    /// A path parameter, such as `studentId` of `/students/:studentId`.
    public func parameter(_ name: String) throws -> String {
        guard let value = parameters[name], !value.isEmpty else { throw APIError.invalidField(name, reason: "missing") }
        try Self.checkText(value, name, maxLength: TextLimit.name)
        return value
    }

    /// A header, by its lowercase name.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// `?page=&per_page=`: whole numbers, `per_page` between 1 and 100 (`defaultPerPage` if absent).
    public func paging(defaultPerPage: Int = 20) throws -> APIPaging {
        let page = try queryInteger("page", in: 1...1_000_000) ?? 1
        let perPage = try queryInteger("per_page", in: 1...APIPaging.maximumPerPage) ?? min(defaultPerPage, APIPaging.maximumPerPage)
        return APIPaging(page: page, perPage: perPage)
    }

    /// A text query parameter, nil when absent or empty; control characters and overlong text are 400.
    public func queryText(_ name: String, maxLength: Int = TextLimit.title) throws -> String? {
        guard let value = query[name], !value.isEmpty else { return nil }
        try Self.checkText(value, name, maxLength: maxLength)
        return value
    }

    private static func checkText(_ value: String, _ name: String, maxLength: Int) throws {
        switch TextInput.problem(in: value, maxLength: maxLength) {
        case nil: return
        case "kernel.error.text-too-long": throw APIError.invalidField(name, reason: "longer than \(maxLength) characters")
        case "kernel.error.text-invalid-utf8": throw APIError.invalidField(name, reason: "not valid UTF-8")
        default: throw APIError.invalidField(name, reason: "contains a control character")
        }
    }

    /// A whole-number query parameter in `range`.
    public func queryInteger(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = query[name], !text.isEmpty else { return nil }
        guard let value = StrictNumber.integer(text), range.contains(value) else {
            throw APIError.invalidField(name, reason: "expected a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// A `YYYY-MM-DD` query parameter.
    public func queryDate(_ name: String) throws -> CivilDate? {
        guard let text = query[name], !text.isEmpty else { return nil }
        guard let date = CivilDate(text) else { throw APIError.invalidField(name, reason: "expected a date YYYY-MM-DD") }
        return date
    }

    /// A query parameter that must be one of an enum's values (case-insensitive): an unknown one is 400, not 500.
    public func queryEnum<E: RawRepresentable & CaseIterable>(_ name: String, as type: E.Type) throws -> E? where E.RawValue == String {
        guard let text = query[name], !text.isEmpty else { return nil }
        guard let value = E.allCases.first(where: { $0.rawValue.caseInsensitiveCompare(text) == .orderedSame }) else {
            throw APIError.invalidField(name, reason: "expected one of " + E.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return value
    }

    /// `true` or `false`.
    public func queryBool(_ name: String) throws -> Bool? {
        guard let text = query[name]?.lowercased(), !text.isEmpty else { return nil }
        switch text {
        case "true", "1": return true
        case "false", "0": return false
        default: throw APIError.invalidField(name, reason: "expected true or false")
        }
    }

    /// The JSON body as `T`: malformed JSON, a missing field, a wrong type or an unknown enum
    /// value is 400 naming the field. Text fields are checked like the CLI's (no control characters).
    public func decode<T: Decodable>(_ type: T.Type, keys: APIKeyStyle = .snakeCase) throws -> T {
        guard !body.isEmpty else { throw APIError.malformedJSON }
        do {
            return try APIJSON.decoder(keys).decode(T.self, from: body)
        } catch let error as DecodingError {
            throw APIError.from(error)
        }
    }

    /// Runs an action as the caller in the caller's school, on the kernel's threads (the kernel
    /// is synchronous and never runs on an event loop; writes on lanes of their own, `ActionLanes`).
    /// `Idempotency-Key` makes a retry return the first result without applying it twice.
    public func run<A: Action>(_ action: A.Type, _ input: A.Input) async throws -> A.Output {
        try await run(action, input, as: principal, in: try requireSchool())
    }

    /// Runs an action as someone in a named school: sign-in runs as `Principal.anonymous`
    /// in the school the identifier belongs to.
    public func run<A: Action>(_ action: A.Type, _ input: A.Input, as principal: Principal, in schoolID: SchoolID) async throws -> A.Output {
        let kernel = kernel
        let requestID = header("idempotency-key")
        let language = language
        do {
            let output = try await ActionLanes.pool(ActionLanes.lane(for: action), reads: threadPool).runIfActive {
                try kernel.run(action, input, as: principal, in: schoolID, requestID: requestID, language: language)
            }
            metrics.recordAction(A.id, succeeded: true)
            return output
        } catch {
            metrics.recordAction(A.id, succeeded: false)
            throw error
        }
    }

    /// Any synchronous kernel work (a school list, a look-up across schools) off the event loop,
    /// on the lane its kind of work belongs to: work that writes (a sync push) on the writers'
    /// lane and a password check on the password lane, as an action of that kind would run.
    public func offload<T: Sendable>(on lane: ActionLane = .reads, _ work: @escaping @Sendable (Kernel) throws -> T) async throws -> T {
        let kernel = kernel
        return try await ActionLanes.pool(lane, reads: threadPool).runIfActive { try work(kernel) }
    }
}
