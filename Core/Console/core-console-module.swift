import HogwartsKernel

/// What a module adds to the web console: pages (`/m/<id>/<path>`), dashboard cards, and, for
/// the one module that owns accounts (Auth), how the console signs people in.
public protocol ConsoleModule: AppModule {
    var consolePages: [ConsolePage] { get }
    var consoleCards: [ConsoleCard] { get }
    var consoleIdentity: (any ConsoleIdentity)? { get }
}

extension ConsoleModule {
    public var consolePages: [ConsolePage] { [] }
    public var consoleCards: [ConsoleCard] { [] }
    public var consoleIdentity: (any ConsoleIdentity)? { nil }
}

extension AppModule {
    /// This module's console pages and cards, none when it adds nothing to the console.
    public var contributedConsolePages: [ConsolePage] { (self as? any ConsoleModule)?.consolePages ?? [] }
    public var contributedConsoleCards: [ConsoleCard] { (self as? any ConsoleModule)?.consoleCards ?? [] }
    public var contributedConsoleIdentity: (any ConsoleIdentity)? { (self as? any ConsoleModule)?.consoleIdentity }
}
