import Foundation
import HogwartsBase

/// A school: the tenant. Rows of one school are never visible to another.
public struct School: Codable, Sendable, Hashable {
    public let id: SchoolID
    /// Short name used on the command line and as the web subdomain, e.g. `demo`.
    public let slug: String
    public let name: LocalizedText
    /// IANA identifier, e.g. `Africa/Khartoum` (the web app's default).
    public let timeZone: String
    public let language: Language
    public let createdAt: Date

    init(row: SQLRow) {
        id = row.string("id")
        slug = row.string("slug")
        name = LocalizedText(ar: row.string("name_ar"), en: row.string("name_en"))
        timeZone = row.string("time_zone")
        language = Language(rawValue: row.string("language")) ?? .default
        createdAt = (row["created_at"] as String?).flatMap(SQLDateFormat.date(from:)) ?? Date(timeIntervalSince1970: 0)
    }

    init(id: SchoolID, slug: String, name: LocalizedText, timeZone: String, language: Language, createdAt: Date) {
        self.id = id
        self.slug = slug
        self.name = name
        self.timeZone = timeZone
        self.language = language
        self.createdAt = createdAt
    }
}

/// What is needed to open a new school.
public struct NewSchool: Codable, Sendable {
    public var slug: String
    public var name: LocalizedText
    public var timeZone: String
    public var language: Language
    /// The modules to switch on; nil means every module that is on by default.
    public var enabledModules: [ModuleID]?

    public init(slug: String, name: LocalizedText, timeZone: String = "Africa/Khartoum", language: Language = .ar, enabledModules: [ModuleID]? = nil) {
        self.slug = slug
        self.name = name
        self.timeZone = timeZone
        self.language = language
        self.enabledModules = enabledModules
    }
}

package enum SchoolRecords {
    /// Finds a school by slug or id.
    package static func find(_ reference: String, in db: any StorageConnection) throws -> School {
        let row = try db.fetchOne(sql: "SELECT * FROM schools WHERE slug = ? OR id = ?", arguments: [reference, reference])
        guard let row else { throw KernelError.unknownSchool(reference) }
        return School(row: row)
    }

    static func all(in db: any StorageConnection) throws -> [School] {
        try db.fetchAll(sql: "SELECT * FROM schools ORDER BY slug").map(School.init(row:))
    }
}
