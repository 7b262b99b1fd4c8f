import Core
import Foundation
import HogwartsTestSupport
import Testing

/// The module contract split by layer: a module brings to a surface only what it adopted that
/// surface's protocol for, and the HTTP server serves only the layers it was given.
@Suite("The module contract by layer")
struct LayerContractTests {
    /// Routes written without `HTTPModule`: the same properties as `NotesModule`'s, never read.
    struct RoutesWithoutTheProtocol: AppModule {
        let id: ModuleID = "unadopted"
        let version = SemanticVersion(1, 0, 0)
        var routes: [APIRoute] { NotesRoutes.all }
        var strings: StringCatalog { StringCatalog(ar: [:], en: [:]) }
    }

    @Test("a module's routes reach the server only through HTTPModule; its identity only through IdentityModule")
    func contributionsFollowTheProtocols() throws {
        let adopted: any AppModule = NotesModule()
        let unadopted: any AppModule = RoutesWithoutTheProtocol()
        #expect(adopted.contributedRoutes.map(\.path) == NotesRoutes.all.map(\.path))
        #expect(unadopted.contributedRoutes.isEmpty)
        #expect(unadopted.contributedCommands.isEmpty && unadopted.contributedConsolePages.isEmpty && unadopted.contributedSyncEntities.isEmpty)

        let harness = try TestHarness(modules: [NotesModule()])
        #expect(harness.kernel.registry.identityProvider is NotesIdentity)
        #expect(try TestHarness(modules: [GraphModule("lonely")]).kernel.registry.identityProvider == nil)
    }

    @Test("the API alone serves no sync route and no console; the server `serve` runs adds both")
    func serverLayers() async throws {
        let harness = try TestHarness(modules: [NotesModule()])
        let bare = APIServer(kernel: harness.kernel, threadPool: .singleton, extensions: [])
        let standard = APIServer(kernel: harness.kernel, threadPool: .singleton)
        let barePaths = bare.routes.map(\.route.path)
        let standardPaths = standard.routes.map(\.route.path)
        #expect(barePaths.contains("/api/notes") && barePaths.contains("/health"))
        #expect(!barePaths.contains { $0.hasPrefix("/api/v1/sync/") })
        #expect(standardPaths.contains("/api/v1/sync/push") && standardPaths.contains("/api/v1/sync/pull"))
        #expect(Set(standardPaths).isSuperset(of: barePaths))
    }
}
