import Core
import Foundation

public struct ReadingItem: Codable, Sendable, Equatable {
    public let id: String
    public let title: String
    public let createdAt: Date
}

/// Adds one item to the school.
public struct AddReadingItem: Action {
    public struct Input: Codable, Sendable {
        public var title: String
        public init(title: String) { self.title = title }
    }

    public static let id = "reading.add"
    public static let permission = ReadingPermissions.write

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        let title = input.title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...200).contains(title.count) else { throw InputError("reading.error.title-length", ["max": "200"]) }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> ReadingItem {
        let item = ReadingItem(id: context.newID(), title: input.title.trimmingCharacters(in: .whitespacesAndNewlines), createdAt: context.now)
        try context.database.insert(into: "reading_items", [
            "id": .text(item.id), "title": .text(item.title),
            "created_by": .text(context.principal.userID), "created_at": SQLValue(item.createdAt),
        ])
        return item
    }
}

/// Lists the school's items, oldest first.
public struct ListReadingItems: Action {
    public struct Input: Codable, Sendable { public init() {} }

    public static let id = "reading.list"
    public static let permission = ReadingPermissions.read
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> [ReadingItem] {
        try context.database.fetchAll(
            "SELECT id, title, created_at FROM reading_items WHERE school_id = :school_id ORDER BY created_at, id"
        ).map { row in
            ReadingItem(id: row.string("id"), title: row.string("title"), createdAt: row["created_at"] ?? Date(timeIntervalSince1970: 0))
        }
    }
}
