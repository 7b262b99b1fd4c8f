import Core
import Foundation

/// `/api/v1/clubs`: the same actions as the commands, over HTTP. A handler decodes, runs
/// the action through the kernel (permission, school, module switch) and encodes. Each answer's
/// OpenAPI schema is read from the type it encodes (`APISchema.of`).
enum ClubsRoutes {
    struct NewItem: Decodable {
        let title: String
    }

    static var all: [APIRoute] {
        [
            APIRoute(.get, "/api/v1/clubs/items", summary: "The school's items", response: .of(APIList<ClubsItem>.self)) { request in
                try .json(APIList(try await request.run(ListClubsItems.self, .init())))
            },
            APIRoute(.post, "/api/v1/clubs/items", summary: "Adds an item", body: .object([("title", .string(maxLength: 200))]),
                     status: 201, response: .of(ClubsItem.self)) { request in
                let body = try request.decode(NewItem.self)
                return try .json(try await request.run(AddClubsItem.self, .init(title: body.title)), status: 201)
            },
        ]
    }
}
