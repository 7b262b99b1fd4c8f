import Foundation

/// Waits for something other processes bring about (a server's background delivery, a database
/// coming back): polls `condition` until it holds or `seconds` pass, then asks it once more.
/// An error while polling counts as "not yet"; the last one is thrown.
func eventually(within seconds: Double, _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if (try? await condition()) == true { return true }
        try await Task.sleep(for: .milliseconds(250))
    }
    return try await condition()
}
