import HogwartsHost
import Clubs

/// `clubs-host`: the Hogwarts host with every built-in module and Clubs.
@main
enum ClubsHost {
    static func main() {
        HogwartsHost.main(modules: HogwartsHost.builtIn + [ClubsModule()])
    }
}
