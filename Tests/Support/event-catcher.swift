import Core
import Synchronization

/// Keeps every event of one type that a test's kernel delivers, as a module hearing it would get
/// it: add `catcher.module(hearing:)` to the harness's modules.
public final class EventCatcher<E: DomainEvent>: Sendable {
    private let caught = Mutex<[E]>([])

    public init() {}

    public var events: [E] { caught.withLock { $0 } }

    /// A module with nothing but a handler for `E`, depending on the module that publishes it.
    public func module(hearing publisher: ModuleID) -> any AppModule {
        EventCatcherModule(catcher: self, publisher: publisher)
    }

    fileprivate func add(_ event: E) { caught.withLock { $0.append(event) } }
}

private struct EventCatcherModule<E: DomainEvent>: AppModule {
    let catcher: EventCatcher<E>
    let publisher: ModuleID
    let id: ModuleID = "eventcatcher"
    let version = SemanticVersion(1, 0, 0)
    var dependencies: [ModuleDependency] { [ModuleDependency(publisher, "^1.0.0")] }
    var strings: StringCatalog { StringCatalog(ar: [:], en: [:]) }
    var eventHandlers: [EventHandler] {
        let catcher = catcher
        return [EventHandler("eventcatcher.catch", on: E.self) { event, _ in catcher.add(event) }]
    }
}
