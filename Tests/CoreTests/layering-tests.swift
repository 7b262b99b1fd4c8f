import Foundation
import Testing

/// The kernel's layers as `Package.swift` draws them (docs/architecture.md): each folder of `Core/`
/// may import only the layers below it and its own libraries. The compiler enforces what
/// `Package.swift` allows; this keeps `Package.swift` from allowing more.
@Suite("The kernel's layers")
struct LayeringTests {
    static let core = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "../../Core").standardizedFileURL

    /// What each layer's files may import besides the standard library's own modules.
    static let allowed: [String: Set<String>] = [
        "Base": ["Crypto"],
        "SQLite": ["HogwartsBase", "GRDB"],
        "PostgreSQL": ["HogwartsBase", "CLibPQ"],
        "Kernel": ["HogwartsBase", "HogwartsSQLite", "HogwartsPostgreSQL", "Crypto", "Logging"],
        "HTTP": ["HogwartsBase", "HogwartsKernel", "HogwartsPostgreSQL", "HogwartsSyncWire", "Hummingbird", "HTTPTypes", "JWTKit",
                 "Logging", "NIOCore", "NIOPosix", "Prometheus", "ServiceLifecycle"],
        "Sync": ["HogwartsBase", "HogwartsKernel", "HogwartsHTTP", "HogwartsSyncWire"],
        "Console": ["HogwartsBase", "HogwartsKernel", "HogwartsHTTP", "HogwartsSyncWire", "Hummingbird", "HTTPTypes", "Mustache",
                    "Crypto", "NIOCore", "NIOPosix"],
        "CLI": ["HogwartsBase", "HogwartsKernel", "HogwartsPostgreSQL", "HogwartsHTTP", "HogwartsSync", "HogwartsConsole",
                "ArgumentParser", "Hummingbird", "Logging", "NIOPosix", "ServiceLifecycle"],
        "SyncWire": [],
    ]
    static let platform: Set<String> = ["Foundation", "Dispatch", "Synchronization", "Glibc", "Darwin"]

    @Test("each layer imports only what is below it", arguments: allowed.keys.sorted())
    func importsGoDown(layer: String) throws {
        let folder = Self.core.appending(path: layer)
        let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty, "Core/\(layer) has sources")
        for file in files {
            let text = try String(contentsOf: folder.appending(path: file), encoding: .utf8)
            let imported = text.split(separator: "\n").compactMap { line -> String? in
                let words = line.split(separator: " ")
                guard let at = words.firstIndex(of: "import"), at + 1 < words.count, words[..<at].allSatisfy({ $0.hasPrefix("@") }) else { return nil }
                return String(words[at + 1])
            }
            for module in imported where !Self.platform.contains(module) {
                #expect(Self.allowed[layer]?.contains(module) == true, "Core/\(layer)/\(file) imports \(module)")
            }
        }
    }
}
