import Core
import Foundation
import HogwartsTestSupport
import Testing

/// The contract's routes we deliberately do not serve (online exams, translation) answer a
/// stable 404 `NOT_FOUND` an app can branch on, as docs/http-api.md's contract table says.
@Suite("Contract routes out of scope", .waitsOnProcesses)
struct ContractNotServedTests {
    static let outOfScope: [(String, String)] = [
        ("GET", "/api/mobile/exams/00000000-0000-0000-0000-000000000000/online"),
        ("POST", "/api/mobile/exams/00000000-0000-0000-0000-000000000000/answers"),
        ("POST", "/api/mobile/exams/00000000-0000-0000-0000-000000000000/violations"),
        ("POST", "/api/mobile/translate"),
    ]

    @Test("online exams and translate answer 404 NOT_FOUND, signed in or not, whatever the body")
    func notServed() async throws {
        let harness = try TestHarness(modules: builtInModules)
        try await harness.api { api in
            for (method, path) in Self.outOfScope {
                for principal in [nil, harness.user(.student)] {
                    let answer = try await api.request(.init(rawValue: method) ?? .get, path, as: principal, json: method == "POST" ? ["entity_type": "event"] : nil)
                    #expect(answer.status == 404 && answer.code == "NOT_FOUND", "\(method) \(path): \(answer.status) \(answer.text)")
                }
            }
        }
    }
}
