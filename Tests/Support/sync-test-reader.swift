import Core
import Foundation

/// What one person's offline app receives of one entity type, read through the kernel's pull and
/// snapshot as the sync routes read them: each entity by id with its `title`, or "deleted".
public struct SyncTestReader {
    public struct Reset: Error {}

    let kernel: Kernel
    let school: String
    let type: String

    public init(_ kernel: Kernel, school: String, type: String) {
        self.kernel = kernel
        self.school = school
        self.type = type
    }

    /// Every change since `cursor`, the last one per entity; without a cursor, from where a new
    /// app's snapshot would leave it. Throws `Reset` if the pull answers a reset.
    public func pull(_ principal: Principal, from cursor: String? = nil) throws -> (titles: [String: String], cursor: String) {
        var cursor = try cursor ?? kernel.syncSnapshot(after: nil, limit: 1, as: principal, in: school).cursor
        var seen: [String: String] = [:]
        while true {
            guard case .changes(let changes, let next, let hasMore, _) = try kernel.syncPull(clientID: nil, cursor: cursor, limit: 1000,
                                                                                            as: principal, in: school) else { throw Reset() }
            for change in changes where change.type == type { seen[change.id] = Self.title(change.data) ?? "deleted" }
            cursor = next
            if !hasMore { return (seen, next) }
        }
    }

    /// The titles in a new app's snapshot.
    public func snapshot(_ principal: Principal) throws -> Set<String> {
        var titles: Set<String> = []
        var after: String?
        repeat {
            let page = try kernel.syncSnapshot(after: after, limit: 100, as: principal, in: school)
            titles.formUnion(page.items.filter { $0.type == type }.compactMap { Self.title($0.data) })
            after = page.after
        } while after != nil
        return titles
    }

    private static func title(_ data: APIValue?) -> String? {
        if case .object(let fields)? = data, case .string(let title)? = fields["title"] { return title }
        return nil
    }
}
