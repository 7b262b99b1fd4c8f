import Foundation

/// Where the command line keeps the signed-in user's files (`sessions.json`):
/// `HOGWARTS_CONFIG_DIR`, else `$XDG_CONFIG_HOME/hogwarts`, else `~/.config/hogwarts`.
/// In Core so that `hogwarts config` reports the folder the Auth module really uses.
public enum ConfigDirectory {
    /// The folder, and the variable it came from (nil for the default).
    public static func resolve(_ variables: [String: String]) -> (url: URL, variable: String?) {
        if let configured = variables["HOGWARTS_CONFIG_DIR"] {
            return (URL(filePath: configured), "HOGWARTS_CONFIG_DIR")
        }
        if let xdg = variables["XDG_CONFIG_HOME"] {
            return (URL(filePath: xdg).appending(path: "hogwarts"), "XDG_CONFIG_HOME")
        }
        return (FileManager.default.homeDirectoryForCurrentUser.appending(path: ".config/hogwarts"), nil)
    }
}
