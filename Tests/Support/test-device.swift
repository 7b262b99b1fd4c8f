import Core
import Foundation

/// What one offline app holds, driven through the kernel as the sync routes drive it: a snapshot
/// of the caller's scope first, then each pull's changes on top, the last change of an entity winning.
public final class TestDevice {
    public private(set) var entities: [String: [String: APIValue]] = [:]
    private var cursor: String
    private let kernel: Kernel
    private let principal: Principal
    private let schoolID: SchoolID

    /// A device that has just read its snapshot (every page) and pulled once.
    public init(_ kernel: Kernel, as principal: Principal, in schoolID: SchoolID) throws {
        self.kernel = kernel
        self.principal = principal
        self.schoolID = schoolID
        var after: String?
        var first: String?
        repeat {
            let page = try kernel.syncSnapshot(after: after, limit: 1000, as: principal, in: schoolID)
            first = first ?? page.cursor
            for item in page.items {
                if case .object(let data) = item.data { entities["\(item.type)/\(item.id)"] = data }
            }
            after = page.after
        } while after != nil
        cursor = first ?? ""
        try pull()
    }

    /// Applies every change after the cursor; a reset is a failure here (the caller's scope did not change).
    public func pull() throws {
        while true {
            guard case .changes(let changes, let next, let hasMore, _) = try kernel.syncPull(
                clientID: nil, cursor: cursor, limit: 1000, as: principal, in: schoolID) else {
                throw TestDeviceError.unexpectedReset
            }
            for change in changes {
                if change.op == .upsert, case .object(let data) = change.data {
                    entities["\(change.type)/\(change.id)"] = data
                } else {
                    entities["\(change.type)/\(change.id)"] = nil
                }
            }
            cursor = next
            if !hasMore { return }
        }
    }
}

public enum TestDeviceError: Error { case unexpectedReset }
