import Core
import Foundation

/// `/api/v1/reading`: the same actions as the commands, over HTTP. A handler decodes, runs
/// the action through the kernel (permission, school, module switch) and encodes. Each answer's
/// OpenAPI schema is read from the type it encodes (`APISchema.of`).
enum ReadingRoutes {
    struct NewItem: Decodable {
        let title: String
    }

    static var all: [APIRoute] {
        [
            APIRoute(.get, "/api/v1/reading/items", summary: "The school's items", response: .of(APIList<ReadingItem>.self)) { request in
                try .json(APIList(try await request.run(ListReadingItems.self, .init())))
            },
            APIRoute(.post, "/api/v1/reading/items", summary: "Adds an item", body: .object([("title", .string(maxLength: 200))]),
                     status: 201, response: .of(ReadingItem.self)) { request in
                let body = try request.decode(NewItem.self)
                return try .json(try await request.run(AddReadingItem.self, .init(title: body.title)), status: 201)
            },
        ]
    }
}
