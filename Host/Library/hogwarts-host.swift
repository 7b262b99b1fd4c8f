import Core

/// The host as a library, so a package outside this repository can build its own `hogwarts`:
/// the built-in modules plus its own, through the same command line, server and console.
///
///     HogwartsHost.main(modules: HogwartsHost.builtIn + [ClubsModule()])
public enum HogwartsHost {
    /// Every feature module this package builds (generated from Package.swift's module table).
    public static var builtIn: [any AppModule] { builtInModules }

    /// Runs the command line (`serve`, `migrate`, every module's commands) over `modules` and exits.
    public static func main(modules: [any AppModule]) -> Never {
        HogwartsCommandLine.main(modules: modules)
    }
}
