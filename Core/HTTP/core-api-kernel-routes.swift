import Foundation
import HogwartsBase
import HogwartsKernel

/// The routes the kernel serves itself: health, readiness, the school list, the caller's
/// modules, the dashboard and admin stats (whose fields modules contribute), the OpenAPI
/// document and the metrics. None names a module.
struct KernelRoutes {
    let server: APIServer

    var all: [APIRoute] {
        [health, ready, schools, modules, dashboard, adminStats, openAPI, metrics, live]
    }

    private var health: APIRoute {
        APIRoute(.get, "/health", summary: "The process is up", access: .everyone, response: .object([("status", .values(["ok"]))])) { _ in
            try .json(["status": "ok"])
        }
    }

    private var ready: APIRoute {
        APIRoute(.get, "/ready", summary: "The database answers within three seconds and every migration is applied", access: .everyone,
                 response: .object([("status", .values(["ready"])), ("migrations", .integer(minimum: 0))])) { request in
            // A load balancer takes a node out on a slow answer as on a 503: it gets one in time.
            // Three seconds, not one: a busy but healthy node (2 cores under a full test run took
            // over a second) must not be taken out, and balancers commonly wait 5 s.
            let migrations = try await Deadline.within(seconds: 3) { try await request.offload { kernel in try kernel.migrationStatus() } }
            let pending = migrations.filter { $0.appliedAt == nil }.count
            guard pending == 0 else { throw KernelError.pendingMigrations(pending) }
            return try .json(APIValue.object(["status": "ready", "migrations": .int(migrations.count)]))
        }
    }

    /// A bare array, as the web app answers and the apps decode it.
    private var schools: APIRoute {
        let item: APISchema = .object([("id", .id), ("name", .text), ("name_en", .text), ("logo_url", .nullable(.text)), ("domain", .text)])
        return APIRoute(.get, "/api/mobile/schools", summary: "Schools a person can sign in to (a bare array)", access: .everyone,
                        response: .array(item)) { request in
            let schools = try await request.offload { kernel in try kernel.schools() }
            return try .json(schools.map { school in
                APIValue.object(["id": .string(school.id), "name": .string(school.name.ar), "name_en": .string(school.name.en),
                                 "logo_url": .null, "domain": .string(school.slug)])
            })
        }
    }

    private var modules: APIRoute {
        let item: APISchema = .object([("id", .id), ("name", .text), ("description", .text), ("icon", .text), ("version", .text),
                                       ("enabled", .boolean), ("dependencies", .array(.text))])
        return APIRoute(.get, "/api/v1/modules", summary: "The caller's school's modules, their versions and whether each is on",
                        response: .list(of: item)) { request in
            let school = try request.requireSchool()
            let enabled = try await request.offload { kernel in try kernel.enabledModules(for: school) }
            let language = request.language
            return try .json(["data": request.kernel.registry.modules.map { module in
                APIValue.object([
                    "id": .string(module.id), "name": .string(module.name.text(in: language)), "description": .string(module.summary.text(in: language)),
                    "icon": .string(module.iconName), "version": .string(module.version.description), "enabled": .bool(enabled.contains(module.id)),
                    "dependencies": .array(module.dependencies.map { .string($0.moduleID) }),
                ])
            }])
        }
    }

    private var dashboard: APIRoute {
        let base: [(String, APISchema)] = [("user_name", .text), ("avatar_url", .nullable(.text)), ("role", .values(of: Role.self)), ("school_name", .text)]
        let contributed = server.kernel.registry.modules.compactMap(\.contributedDashboard)
        return APIRoute(.get, "/api/mobile/dashboard", summary: "The caller's dashboard: fields depend on the role and the school's modules",
                        response: .object(base + contributed.flatMap(\.fields).map { ($0.0, APISchema.optional($0.1)) })) { request in
            let schoolID = try request.requireSchool()
            let school = try await request.offload { kernel in try kernel.school(schoolID) }
            var fields: [String: APIValue] = [
                "user_name": .string(request.principal.displayName), "avatar_url": .null,
                "role": .string(request.principal.role.rawValue), "school_name": .string(school.name.text(in: request.language)),
            ]
            try await Self.merge(into: &fields, request: request, contributions: \.contributedDashboard)
            return try .json(APIValue.object(fields))
        }
    }

    private var adminStats: APIRoute {
        let contributed = server.kernel.registry.modules.compactMap(\.contributedAdminStats)
        return APIRoute(.get, "/api/mobile/admin/stats", summary: "School totals for administrators: fields come from the school's modules",
                        response: .object(contributed.flatMap(\.fields).map { ($0.0, APISchema.optional($0.1)) })) { request in
            guard request.kernel.registry.policy.scope(of: request.principal.role, for: KernelPermissions.manageSettings) != nil else {
                throw KernelError.permissionDenied(permission: KernelPermissions.manageSettings.id, role: request.principal.role)
            }
            var fields: [String: APIValue] = [:]
            try await Self.merge(into: &fields, request: request, contributions: \.contributedAdminStats)
            return try .json(APIValue.object(fields))
        }
    }

    /// Each module that is on for the school adds its fields, computed through its own actions.
    private static func merge(into fields: inout [String: APIValue], request: APIRequest,
                              contributions: KeyPath<any AppModule, DashboardContribution?>) async throws {
        let school = try request.requireSchool()
        let enabled = try await request.offload { kernel in try kernel.enabledModules(for: school) }
        for module in request.kernel.registry.modules where enabled.contains(module.id) {
            guard let contribution = module[keyPath: contributions] else { continue }
            fields.merge(try await contribution.compute(request)) { _, new in new }
        }
    }

    private var openAPI: APIRoute {
        let server = server
        return APIRoute(.get, "/openapi.json", summary: "This document", access: .everyone, response: .anyObject) { _ in
            APIResponse(status: 200, body: try OpenAPIDocument(server: server).data())
        }
    }

    /// Server-Sent Events: the caller's own live events (a new notification), each with its id;
    /// a reconnect sends the last id back (`Last-Event-ID`, as a browser's EventSource does) and
    /// gets what it missed, then the rest, each once.
    private var live: APIRoute {
        let hub = server.live
        return APIRoute(.get, "/api/v1/live", summary: "The caller's live events as Server-Sent Events (send 'Accept: text/event-stream')",
                        headers: [APIParameter("Last-Event-ID", .integer(minimum: 0)), APIParameter("Accept", .values(["text/event-stream"]), required: true)],
                        response: Self.liveEvent, contentType: "text/event-stream") { request in
            let school = try request.requireSchool()
            // A client that does not ask for a stream (a JSON client, a link checker) would wait for ever.
            guard (request.header("Accept") ?? "").contains("text/event-stream") else { throw APIError.notAcceptable }
            let lastEventID = try LiveHub.eventID(request.header("Last-Event-ID"))
            let body = try await hub.open(school: school, user: request.principal.userID, language: request.language, lastEventID: lastEventID,
                                          until: request.access?.expiresAt ?? Date())
            return .stream(body, contentType: "text/event-stream; charset=utf-8")
        }
    }

    /// One event of the stream as OpenAPI tools read Server-Sent Events: its fields, `data` being
    /// JSON text (a notification); `reset` has no id.
    private static let liveEvent: APISchema = .object([("id", .optional(.text)), ("event", .values(["notification", "reset"])), ("data", .text)])

    private var metrics: APIRoute {
        let metrics = server.metrics
        return APIRoute(.get, "/metrics", summary: "Prometheus metrics (text format)", access: .everyone, response: .text, contentType: "text/plain") { _ in
            APIResponse(status: 200, body: Data(metrics.text.utf8), headers: ["Content-Type": "text/plain; version=0.0.4"])
        }
    }
}
