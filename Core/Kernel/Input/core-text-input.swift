import HogwartsBase

/// Checks on free text that people type (names, titles, messages, GR numbers) before it is
/// stored, and on stored text before it is printed to a terminal.
///
/// A NUL byte cuts a name short in C libraries, invalid UTF-8 arrives from the shell as U+FFFD,
/// and escape, bell or carriage-return characters rewrite a colleague's terminal when printed
/// back. Refusing them at the door keeps every transport (CLI, HTTP, sync) honest.
public enum TextInput {
    /// Line breaks and tabs, allowed only where `multiline` is true (message bodies, descriptions).
    private static let layout: Set<Unicode.Scalar> = ["\n", "\t"]

    /// Throws an `InputError` naming `field` when the text has a control character, a NUL,
    /// invalid UTF-8 (U+FFFD) or more than `maxLength` characters.
    public static func check(_ value: String, field: String, maxLength: Int, multiline: Bool = false) throws {
        if let key = problem(in: value, maxLength: maxLength, multiline: multiline) {
            throw InputError(key, ["field": field, "max": String(maxLength)])
        }
    }

    /// The same check as `check` for code that collects every problem (CSV imports): the key of
    /// the reason in Core's catalog (arguments `field` and `max`), or nil when the text is fine.
    public static func problem(in value: String, maxLength: Int, multiline: Bool = false) -> String? {
        for scalar in value.unicodeScalars {
            if scalar == "\u{FFFD}" { return "kernel.error.text-invalid-utf8" }
            if isControl(scalar) && !(multiline && layout.contains(scalar)) { return "kernel.error.text-control" }
        }
        if value.count > maxLength { return "kernel.error.text-too-long" }
        return nil
    }

    /// C0 and C1 control characters and DEL. Arabic's direction marks are format characters, not controls.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// Text made safe to print on a terminal: each control character (except a line break when
    /// `multiline`) is shown as its visible Unicode "control picture" instead of being obeyed.
    public static func printable(_ value: String, multiline: Bool = false) -> String {
        guard value.unicodeScalars.contains(where: isControl) else { return value }
        var scalars = String.UnicodeScalarView()
        for scalar in value.unicodeScalars {
            if !isControl(scalar) || (multiline && scalar == "\n") {
                scalars.append(scalar)
            } else if scalar.value < 0x20, let picture = Unicode.Scalar(0x2400 + scalar.value) {
                scalars.append(picture)
            } else {
                scalars.append("\u{FFFD}")
            }
        }
        return String(scalars)
    }
}

/// Common length limits, so every module refuses a 10,000-character title the same way.
public enum TextLimit {
    /// A person's given name or surname, a class or subject code's name.
    public static let name = 100
    /// A title: an assessment, a conversation, a holiday.
    public static let title = 200
    /// An identifier a school chooses: GR numbers, codes.
    public static let code = 40
    /// A message body or a description.
    public static let body = 10_000
}
