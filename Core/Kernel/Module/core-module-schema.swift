/// What a module's migrations create, read from their SQL text, beside what its manifest
/// declares (`ownedTables`, `publishedViews`): each module's tests check the two agree, so a
/// table added without its declaration (and so left unguarded) fails a test.
public struct ModuleSchema: Sendable, Equatable {
    public var tables: Set<String> = []
    public var views: Set<String> = []

    /// The tables and views left after every migration of `module`, in order (a table dropped or
    /// renamed by a later migration is gone under its old name).
    public static func created(by module: any AppModule) -> ModuleSchema {
        var schema = ModuleSchema()
        for migration in module.migrations {
            schema.apply(Self.words(in: migration.sql))
        }
        return schema
    }

    /// Declared names missing from the migrations, and created names missing from the manifest;
    /// both empty when they agree.
    public static func mismatches(of module: any AppModule) -> (undeclared: [String], notCreated: [String]) {
        let created = created(by: module)
        let declared = Set(module.ownedTables).union(module.publishedViews)
        let made = created.tables.union(created.views)
        let wrongKind = Set(module.ownedTables).intersection(created.views).union(Set(module.publishedViews).intersection(created.tables))
        return (made.subtracting(declared).union(wrongKind).sorted(), declared.subtracting(made).sorted())
    }

    private mutating func apply(_ words: [String]) {
        var index = 0
        func word(_ offset: Int) -> String { index + offset < words.count ? words[index + offset] : "" }
        /// The name after `IF [NOT] EXISTS`, if any, starting at `offset`.
        func name(at offset: Int) -> String {
            if word(offset) == "if" { return word(offset + 1) == "not" ? word(offset + 3) : word(offset + 2) }
            return word(offset)
        }
        while index < words.count {
            switch (word(0), word(1)) {
            case ("create", "table"): tables.insert(name(at: 2))
            case ("create", "view"): views.insert(name(at: 2))
            case ("drop", "table"): tables.remove(name(at: 2))
            case ("drop", "view"): views.remove(name(at: 2))
            case ("alter", "table") where word(3) == "rename" && word(4) == "to":
                if tables.remove(word(2)) != nil { tables.insert(word(5)) }
            default: break
            }
            index += 1
        }
    }

    /// The statement's words and quoted names in order, lowercased, without string literals,
    /// comments (`--`, `/* */`) or the names of `:parameters`: what a statement names.
    static func words(in sql: String) -> [String] {
        var words: [String] = []
        let bytes = Array(sql.utf8)
        var index = 0
        func isWordByte(_ byte: UInt8) -> Bool {
            (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x2D && index + 1 < bytes.count && bytes[index + 1] == 0x2D {
                while index < bytes.count && bytes[index] != 0x0A { index += 1 }
            } else if byte == 0x2F && index + 1 < bytes.count && bytes[index + 1] == 0x2A {
                index += 2
                while index + 1 < bytes.count && !(bytes[index] == 0x2A && bytes[index + 1] == 0x2F) { index += 1 }
                index += 2
            } else if byte == 0x27 {
                // A literal's '' is two literals back to back: the same skip.
                index += 1
                while index < bytes.count && bytes[index] != 0x27 { index += 1 }
                index += 1
            } else if byte == 0x3A || byte == 0x40 || byte == 0x24 {
                // :name, @name, $name: a parameter, not a name in the schema.
                index += 1
                while index < bytes.count && isWordByte(bytes[index]) { index += 1 }
            } else if byte == 0x22 {
                let start = index + 1
                index = start
                while index < bytes.count && bytes[index] != 0x22 { index += 1 }
                words.append(String(decoding: bytes[start..<min(index, bytes.count)], as: UTF8.self).lowercased())
                index += 1
            } else if isWordByte(byte) {
                let start = index
                while index < bytes.count && isWordByte(bytes[index]) { index += 1 }
                words.append(String(decoding: bytes[start..<index], as: UTF8.self).lowercased())
            } else {
                index += 1
            }
        }
        return words
    }
}
