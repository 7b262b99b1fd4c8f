/// Version facts written into every database, checked by `restore`.
public enum PlatformVersion {
    /// The version of this build of Hogwarts.
    public static let current = SemanticVersion(0, 1, 0)
    /// Marks a file as a Hogwarts database.
    package static let format = "hogwarts"
}
