import ArgumentParser
import HogwartsBase
import HogwartsKernel

/// Numbers and dates typed on the command line, checked when the command starts with a
/// localized message that names the option, instead of a crash or a Swift error.
///
/// Declare such options as `String` with `parsing: .unconditional`, so `--page -3` reaches this
/// check instead of being read as an unknown flag, then call these from `run()`.
public enum ArgumentValue {
    /// A page number: 1 to 100,000 (far beyond any school's list, far below an overflow).
    public static func page(_ text: String?, option: String = "--page") throws -> Int {
        guard let text else { return 1 }
        return try integer(text, option: option, in: 1...100_000)
    }

    /// A whole number in `range`.
    public static func integer(_ text: String, option: String, in range: ClosedRange<Int>) throws -> Int {
        guard let value = StrictNumber.integer(text), range.contains(value) else {
            throw CommandError.invalidArgument(name: option, value: TextInput.printable(text),
                                               expected: L("kernel.expected.integer", ["min": String(range.lowerBound), "max": String(range.upperBound)]))
        }
        return value
    }

    /// A decimal number in `range`: no `nan`, `inf` or hexadecimal.
    public static func decimal(_ text: String, option: String, in range: ClosedRange<Double>) throws -> Double {
        guard let value = StrictNumber.decimal(text), range.contains(value) else {
            throw CommandError.invalidArgument(name: option, value: TextInput.printable(text),
                                               expected: L("kernel.expected.decimal", ["min": format(range.lowerBound), "max": format(range.upperBound)]))
        }
        return value
    }

    /// A date `YYYY-MM-DD` between 1900 and 2199.
    public static func date(_ text: String, option: String) throws -> CivilDate {
        guard let date = CivilDate(text) else {
            throw CommandError.invalidArgument(name: option, value: TextInput.printable(text), expected: L("kernel.expected.date"))
        }
        return date
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
