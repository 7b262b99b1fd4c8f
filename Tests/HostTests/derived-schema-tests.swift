import Core
import HogwartsTestSupport
import Testing

/// `APISchema.of` over every built-in route (the host's generated list, so the next module's are
/// checked too): a body type whose decoding refuses every value would leave a hole in the
/// OpenAPI document, so none may.
@Suite("Schemas read from types, every built-in route")
struct DerivedSchemaTests {
    @Test("every route's response schema could be read from its type")
    func everySchemaIsReadable() throws {
        let harness = try TestHarness(modules: builtInModules)
        let server = APIServer(kernel: harness.kernel)
        for (_, route) in server.routes {
            #expect(!"\(route.response.json)".contains("unreadable:"), "\(route.method.rawValue) \(route.path)")
        }
    }
}
