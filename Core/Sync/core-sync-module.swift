import HogwartsKernel

/// What a module adds to offline sync (`/api/v1/sync/*`): the keys it adds to a caller's scope
/// and the mutations apps may queue offline, beside the records it shares (`SyncRecordedModule`).
public protocol SyncModule: SyncRecordedModule {
    var syncScopes: SyncScopeRule? { get }
    var syncMutations: [SyncMutation] { get }
}

extension SyncModule {
    public var syncScopes: SyncScopeRule? { nil }
    public var syncMutations: [SyncMutation] { [] }
}

extension AppModule {
    /// This module's scope rule and offline mutations, none when it adds nothing to sync.
    public var contributedSyncScopes: SyncScopeRule? { (self as? any SyncModule)?.syncScopes }
    public var contributedSyncMutations: [SyncMutation] { (self as? any SyncModule)?.syncMutations ?? [] }
}
