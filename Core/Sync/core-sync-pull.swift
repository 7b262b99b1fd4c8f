import Foundation
import HogwartsSyncWire
import HogwartsBase
import HogwartsKernel

extension Kernel {
    /// The caller's scope keys, worked out now from their role and relationships: the kernel's
    /// (`school`, `staff` for staff roles, `user:<self>`) and those of each module on for the school;
    /// only the entity types of those modules are delivered.
    func syncScope(of principal: Principal, context: SyncContext, enabled: Set<ModuleID>) throws -> SyncScope {
        var keys: [SyncScopeKey] = [.school, .user(principal.userID)]
        if [.developer, .admin, .staff, .accountant, .teacher].contains(principal.role) { keys.append(.staff) }
        var types: [String] = []
        for module in registry.modules where enabled.contains(module.id) {
            context.database.enter(module.id, registry.ownership)
            if let rule = module.contributedSyncScopes { keys += try rule(principal, context) }
            types += module.contributedSyncEntities.map(\.type)
        }
        var scope = SyncScope(keys)
        scope.entityTypes = types
        return scope
    }

    /// A page of the changes in the caller's scope after `cursor`, with the client's last applied
    /// mutation, all read in one snapshot of the database; or a reset.
    public func syncPull(clientID: String?, cursor: String?, limit: Int = SyncProtocol.defaultLimit, as principal: Principal,
                         in schoolID: SchoolID) throws -> SyncPullResponse {
        let limit = min(max(limit, 1), SyncProtocol.maximumLimit)
        if let clientID, !Self.isClientID(clientID) { throw SyncError.clientIDInvalid(clientID) }
        let parsed = try cursor.flatMap { text -> SyncCursor? in
            if text.isEmpty { return nil }
            guard let parsed = SyncCursor.parse(text) else { throw SyncError.cursorInvalid }
            return parsed
        }
        try activateSync(for: principal, in: schoolID)
        return try store.read { db in
            let scope = try scopeForSync(principal, school: schoolID, db: db).1
            let lastMutationSeq = try clientSeq(clientID, principal: principal, school: schoolID, db: db)
            let clock = try db.fetchOne(sql: "SELECT seq, min_seq FROM kernel_sync_clock WHERE school_id = ?", arguments: [schoolID])
            let head: Int = clock?["seq"] ?? 0
            let floor: Int = clock?["min_seq"] ?? 0
            var from = floor
            // No cursor reads the log from its beginning; where that is gone (pruned, or the school
            // recorded only from its first device on), only a snapshot has the older rows.
            if parsed == nil && floor > 0 { return .reset(.cursorExpired) }
            if let parsed {
                guard parsed.school == schoolID else { throw SyncError.cursorInvalid }
                if parsed.v != SyncCursor.version { return .reset(.schemaChanged) }
                if parsed.scopeHash != scope.hash { return .reset(.scopeChanged) }
                if parsed.seq < floor || parsed.seq > head { return .reset(.cursorExpired) }
                from = parsed.seq
            }
            let list = db.dialect.jsonTextList
            let rows = try db.fetchAll(sql: """
                SELECT seq, MAX(entity_type) AS type, MAX(entity_id) AS id, MAX(op) AS op, MAX(payload) AS payload FROM kernel_sync_changes
                WHERE school_id = ? AND scope_key IN (\(list)) AND seq > ?
                  AND entity_type IN (\(list))
                GROUP BY seq ORDER BY seq LIMIT ?
                """, arguments: [schoolID, SyncScope.json(scope.keys.map(\.rawValue)), from, SyncScope.json(scope.entityTypes), limit + 1])
            let hasMore = rows.count > limit
            var changes: [SyncChange] = []
            for row in rows.prefix(limit) {
                // The recorder writes only these two; anything else is a damaged log, not a change to send.
                guard let op = SyncOperation(rawValue: row.string("op")) else { throw KernelError.storage("sync change \(row.string("op"))") }
                let seq = row.int("seq")
                var data: APIValue?
                // The entity's version is the seq of its last change: added here, not stored twice.
                if op == .upsert, let text = row["payload"] as String?, case .object(var members) = try SyncJSON.value(text: text) {
                    members["version"] = .int(seq)
                    data = .object(members)
                }
                changes.append(SyncChange(seq: seq, type: row.string("type"), id: row.string("id"), op: op, data: data))
            }
            // With nothing more in scope, the cursor moves to the head: the next pull starts there.
            let next = hasMore ? (changes.last?.seq ?? from) : max(from, head)
            return .changes(changes, cursor: SyncCursor(school: schoolID, seq: next, scopeHash: scope.hash).text,
                            hasMore: hasMore, lastMutationSeq: lastMutationSeq)
        }
    }

    /// Everything currently in the caller's scope, keyset-paged over every entity type of the
    /// modules on for the school in a fixed order, with the pull cursor as of the first page.
    public func syncSnapshot(after: String?, limit: Int = SyncProtocol.defaultLimit, as principal: Principal,
                             in schoolID: SchoolID) throws -> SyncSnapshotResponse {
        let limit = min(max(limit, 1), SyncProtocol.maximumLimit)
        let position = try after.flatMap { text -> SyncSnapshotPosition? in
            if text.isEmpty { return nil }
            guard let parsed = SyncSnapshotPosition.parse(text), parsed.school == schoolID else { throw SyncError.cursorInvalid }
            return parsed
        }
        try activateSync(for: principal, in: schoolID)
        return try store.read { db in
            let (context, scope) = try scopeForSync(principal, school: schoolID, db: db)
            let types = registry.modules.flatMap(\.contributedSyncEntities).filter { scope.entityTypes.contains($0.type) }
            let head = try db.fetchValue(Int.self, sql: "SELECT seq FROM kernel_sync_clock WHERE school_id = ?", arguments: [schoolID]) ?? 0
            let cursor = position?.cursor ?? SyncCursor(school: schoolID, seq: head, scopeHash: scope.hash).text
            var items: [SyncSnapshotItem] = []
            var typeIndex = position?.type ?? 0
            var afterID = position?.after ?? ""
            while typeIndex < types.count && items.count < limit {
                let type = types[typeIndex]
                context.database.boundary = registry.syncBoundaries[type.type]
                let want = limit - items.count
                let ids = try type.snapshot(scope, afterID, want, context)
                let loaded = try type.load(ids, context)
                let versions = try Dictionary(db.fetchAll(sql: """
                    SELECT entity_id, version FROM kernel_sync_entities WHERE school_id = ? AND entity_type = ? AND entity_id IN (\(db.dialect.jsonTextList))
                    """, arguments: [schoolID, type.type, SyncScope.json(ids)]).map { ($0.string("entity_id"), $0.int("version")) },
                    uniquingKeysWith: { first, _ in first })
                for id in ids {
                    // A module's list is checked against the entity's own keys: nothing out of scope leaks.
                    guard let entity = loaded[id], entity.scopes.contains(where: scope.contains) else { continue }
                    var data = entity.data
                    data["version"] = .int(versions[id] ?? 0)
                    items.append(SyncSnapshotItem(type: type.type, id: id, data: .object(data)))
                }
                if ids.count < want {
                    typeIndex += 1
                    afterID = ""
                } else {
                    afterID = ids.last ?? ""
                }
            }
            let more = typeIndex < types.count
            let next = more ? SyncSnapshotPosition(v: 1, school: schoolID, type: typeIndex, after: afterID, cursor: cursor).text : nil
            return SyncSnapshotResponse(items: items, after: next, cursor: cursor)
        }
    }

    /// A device of the school asks: from now on its changes are recorded (see `SyncActivation`).
    /// Another school's caller activates nothing; the read that follows refuses them.
    func activateSync(for principal: Principal, in schoolID: SchoolID) throws {
        guard principal.schoolID == nil || principal.schoolID == schoolID else { return }
        try activateSync(schoolID)
    }

    private func scopeForSync(_ principal: Principal, school schoolID: SchoolID, db: any StorageConnection) throws -> (SyncContext, SyncScope) {
        try requireMigrated(db)
        let school = try SchoolRecords.find(schoolID, in: db)
        if let home = principal.schoolID, home != school.id { throw KernelError.outsideSchool(school: school.slug) }
        let enabled = try ModuleSwitchRecords.enabled(for: school.id, registry: registry, in: db)
        let context = try SyncContext.make(school: school.id, now: now(), principal: principal, policy: registry.policy, db: db)
        return (context, try syncScope(of: principal, context: context, enabled: enabled))
    }

    private func clientSeq(_ clientID: String?, principal: Principal, school: SchoolID, db: any StorageConnection) throws -> Int {
        guard let clientID,
              let row = try db.fetchOne(sql: "SELECT school_id, user_id, last_mutation_seq FROM kernel_sync_clients WHERE client_id = ?",
                                        arguments: [clientID])
        else { return 0 }
        guard row.string("school_id") == school, row.string("user_id") == principal.userID else { throw SyncError.clientForeign }
        return row.int("last_mutation_seq")
    }
}
