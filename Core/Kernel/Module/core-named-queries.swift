import Foundation
import HogwartsBase

/// A question one module answers for others that do not depend on it (report cards ask for
/// attendance only where attendance is on; a roster export asks for grades only where grades is on).
///
/// Both sides declare their own type with the same `name` and the same Codable shape: the
/// request and answer cross the kernel as JSON, as events do, so neither module imports the
/// other, and each side's tests check the shape it relies on.
public protocol NamedQuery {
    associatedtype Request: Codable & Sendable
    associatedtype Answer: Codable & Sendable
    /// `<providing module>.<question>`, e.g. `grades.assessments-and-results`.
    static var name: String { get }
}

/// A module's answer to a named query, registered in its `queries`. It runs in the asker's
/// transaction with the asker's context, after the kernel checked that the asker holds `permission`.
public struct NamedQueryProvider: Sendable {
    public let name: String
    public let permission: Permission
    let answer: @Sendable (Data, ActionContext) throws -> Data

    public init<Q: NamedQuery>(_ query: Q.Type, permission: Permission, _ body: @escaping @Sendable (Q.Request, ActionContext) throws -> Q.Answer) {
        name = Q.name
        self.permission = permission
        answer = { request, context in
            try JSONEncoder().encode(try body(try JSONDecoder().decode(Q.Request.self, from: request), context))
        }
    }
}

/// Every module's named queries by name, with the module that answers each: built by the registry.
struct NamedQueryDirectory: Sendable {
    private(set) var providers: [String: (module: ModuleID, provider: NamedQueryProvider)] = [:]

    mutating func add(_ provider: NamedQueryProvider, by module: ModuleID) throws {
        guard provider.name.hasPrefix("\(module)."), providers[provider.name] == nil else {
            throw KernelError.duplicateDeclaration(kind: "query", name: provider.name)
        }
        providers[provider.name] = (module, provider)
    }
}

extension ActionContext {
    /// Asks another module a named query. Nil when no installed module answers it or its module
    /// is off for this school: the caller goes on without it. The asker must hold the query's
    /// permission, as for an action; the answer is read in this run's transaction.
    public func ask<Q: NamedQuery>(_ query: Q.Type, _ request: Q.Request) throws -> Q.Answer? {
        guard let entry = policy.queries.providers[Q.name], enabledModules.contains(entry.module) else { return nil }
        guard scope(for: entry.provider.permission) != nil else {
            throw KernelError.permissionDenied(permission: entry.provider.permission.id, role: principal.role)
        }
        // The provider's own code answers: its statements are checked as its module's.
        let answer = try database.running(as: entry.module) { try entry.provider.answer(try JSONEncoder().encode(request), self) }
        do {
            return try JSONDecoder().decode(Q.Answer.self, from: answer)
        } catch {
            // The two sides' shapes differ: a programming error the shape tests are there to catch.
            throw KernelError.storage("named query \(Q.name): the answer does not match the asker's shape (\(error))")
        }
    }
}
