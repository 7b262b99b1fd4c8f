/// A module whose records offline apps keep: the kernel records every change to them at the end
/// of each write transaction (`ChangeRecorder`). `SyncModule` (HogwartsSync) adds who may pull
/// them and the mutations apps may queue offline.
public protocol SyncRecordedModule: AppModule {
    var syncEntities: [SyncEntityType] { get }
}

extension AppModule {
    /// The records this module shares with offline apps, none when it shares none.
    public var contributedSyncEntities: [SyncEntityType] { (self as? any SyncRecordedModule)?.syncEntities ?? [] }
}
