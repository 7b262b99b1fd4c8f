import Core
import Foundation

/// `/api/v1/reading`: the same actions as the commands, over HTTP. A handler decodes, runs
/// the action through the kernel (permission, school, module switch) and encodes.
enum ReadingRoutes {
    static let item: APISchema = .object([("id", .id), ("title", .text), ("created_at", .dateTime)])

    struct NewItem: Decodable {
        let title: String
    }

    static var all: [APIRoute] {
        [
            APIRoute(.get, "/api/v1/reading/items", summary: "The school's items", response: .list(of: item)) { request in
                try .json(["data": try await request.run(ListReadingItems.self, .init())])
            },
            APIRoute(.post, "/api/v1/reading/items", summary: "Adds an item", body: .object([("title", .string(maxLength: 200))]),
                     status: 201, response: item) { request in
                let body = try request.decode(NewItem.self)
                return try .json(try await request.run(AddReadingItem.self, .init(title: body.title)), status: 201)
            },
        ]
    }
}
