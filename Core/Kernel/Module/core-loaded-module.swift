/// What a loadable module's `hogwarts_module_create` entry point hands the host: the module,
/// boxed in a class of the kernel's, so the host takes it back with `Unmanaged` and nothing
/// crosses the C boundary but one pointer. There is one copy of this type, the host's: a
/// loadable leaves the kernel's symbols unresolved and they bind to the host's at load.
public final class LoadedModule: Sendable {
    public let module: any AppModule

    public init(_ module: any AppModule) {
        self.module = module
    }

    /// The value `hogwarts_module_create` returns: `@_cdecl("hogwarts_module_create")
    /// public func create() -> UnsafeMutableRawPointer { LoadedModule.entry(ReadingModule()) }`.
    public static func entry(_ module: any AppModule) -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(LoadedModule(module)).toOpaque()
    }
}
