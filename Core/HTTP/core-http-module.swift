import Foundation
import HogwartsKernel

/// What a module adds to the HTTP API: its routes, and its fields of the mobile dashboard and
/// the admin stats. A module without routes does not adopt it.
public protocol HTTPModule: AppModule {
    /// HTTP routes, each running this module's actions (`<module>-routes.swift`).
    var routes: [APIRoute] { get }
    /// What this module adds to `GET /api/mobile/dashboard` and `GET /api/mobile/admin/stats`.
    var dashboard: DashboardContribution? { get }
    var adminStats: DashboardContribution? { get }
}

extension HTTPModule {
    public var routes: [APIRoute] { [] }
    public var dashboard: DashboardContribution? { nil }
    public var adminStats: DashboardContribution? { nil }
}

extension AppModule {
    /// This module's routes, none when it adds nothing to the API.
    public var contributedRoutes: [APIRoute] { (self as? any HTTPModule)?.routes ?? [] }
    public var contributedDashboard: DashboardContribution? { (self as? any HTTPModule)?.dashboard }
    public var contributedAdminStats: DashboardContribution? { (self as? any HTTPModule)?.adminStats }
}

/// Fields a module adds to a summary the kernel serves (the dashboard, the admin stats): their
/// shapes for the OpenAPI document, and how to compute them for the caller (through actions,
/// so the caller's permissions and scope apply). A field the caller's role does not get is left out.
public struct DashboardContribution: Sendable {
    public let fields: [(String, APISchema)]
    public let compute: @Sendable (APIRequest) async throws -> [String: APIValue]

    public init(fields: [(String, APISchema)], compute: @escaping @Sendable (APIRequest) async throws -> [String: APIValue]) {
        self.fields = fields
        self.compute = compute
    }
}
