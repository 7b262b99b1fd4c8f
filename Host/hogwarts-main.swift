import Core

/// The `hogwarts` executable: hands the built-in modules (generated from Package.swift's module
/// table) to the kernel's command line. It knows no feature and no domain rule.
@main
enum HogwartsHost {
    static func main() {
        HogwartsCommandLine.main(modules: builtInModules)
    }
}
