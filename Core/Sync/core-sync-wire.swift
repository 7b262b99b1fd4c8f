import Foundation
import HogwartsSyncWire
import HogwartsKernel

// The sync wire shapes (HogwartsSyncWire, shared with the client library) with the server's
// JSON value, `APIValue`, as their payloads.
public typealias SyncProtocol = SyncWire
public typealias SyncPushRequest = SyncWire.PushRequest<APIValue>
public typealias SyncPushMutation = SyncWire.Mutation<APIValue>
public typealias SyncMutationStatus = SyncWire.Status
public typealias SyncPushResult = SyncWire.MutationResult<APIValue>
public typealias SyncStop = SyncWire.Stop
public typealias SyncPushResponse = SyncWire.PushResponse<APIValue>
public typealias SyncOperation = SyncWire.Operation
public typealias SyncChange = SyncWire.Change<APIValue>
public typealias SyncResetReason = SyncWire.ResetReason
public typealias SyncPullResponse = SyncWire.PullResponse<APIValue>
public typealias SyncSnapshotItem = SyncWire.SnapshotItem<APIValue>
public typealias SyncSnapshotResponse = SyncWire.SnapshotPage<APIValue>
