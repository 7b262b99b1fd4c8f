import HogwartsHost

/// The `hogwarts` executable: the host library over the built-in modules. It knows no feature
/// and no domain rule; a package with modules of its own writes the same lines with its list.
@main
enum Hogwarts {
    static func main() {
        HogwartsHost.main(modules: HogwartsHost.builtIn)
    }
}
