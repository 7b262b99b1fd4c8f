import Foundation
import HogwartsKernel

/// Charts drawn on the server as SVG: no script, readable in RTL (bars grow from the reading
/// side), and each with a text alternative: a title and a description for screen readers, and
/// the same figures as a table beneath.
public enum ConsoleChart {
    public struct Bar: Sendable {
        public let label: String
        public let value: Double
        /// The value as shown: `96.4%`, `12`.
        public let shown: String

        public init(label: String, value: Double, shown: String) {
            self.label = label
            self.value = value
            self.shown = shown
        }
    }

    /// Horizontal bars, one per item, scaled to `maximum` (the largest value when nil).
    public static func bars(_ bars: [Bar], title: String, maximum: Double? = nil, language: Language, id: String) -> ConsoleHTML {
        let width = 320.0, valueWidth = 48.0, rowHeight = 28.0
        let labelWidth = labelWidth(for: bars)
        let top = max(maximum ?? bars.map(\.value).max() ?? 1, 0.000_1)
        let rtl = language.isRightToLeft
        var shapes = ""
        for (index, bar) in bars.enumerated() {
            let y = Double(index) * rowHeight
            let length = max(0, min(1, bar.value / top)) * (width - labelWidth - valueWidth)
            let barX = rtl ? width - labelWidth - length : labelWidth
            let labelX = rtl ? width - 4 : 4
            let valueX = rtl ? barX - 6 : barX + length + 6
            shapes += """
                <text x="\(labelX)" y="\(y + 18)" text-anchor="start" direction="\(rtl ? "rtl" : "ltr")">\(ConsoleHTML.escape(bar.label))</text>\
                <rect x="\(format(barX))" y="\(y + 5)" width="\(format(length))" height="\(rowHeight - 10)" rx="3" fill="#1f4e8c"></rect>\
                <text x="\(format(valueX))" y="\(y + 18)" text-anchor="\(rtl ? "end" : "start")" direction="ltr">\(ConsoleHTML.escape(bar.shown))</text>
                """
        }
        let height = max(rowHeight, Double(bars.count) * rowHeight)
        let description = bars.map { "\($0.label): \($0.shown)" }.joined(separator: language == .ar ? "، " : ", ")
        let rows = bars.map { "<tr><th scope=\"row\">\(ConsoleHTML.escape($0.label))</th><td dir=\"ltr\">\(ConsoleHTML.escape($0.shown))</td></tr>" }.joined()
        return ConsoleHTML(trusted: """
            <figure class="chart-figure"><svg class="chart" viewBox="0 0 \(Int(width)) \(Int(height))" width="\(Int(width))" height="\(Int(height))" role="img" \
            aria-labelledby="\(id)-title \(id)-desc"><title id="\(id)-title">\(ConsoleHTML.escape(title))</title>\
            <desc id="\(id)-desc">\(ConsoleHTML.escape(description))</desc>\(shapes)</svg>\
            <details><summary>\(ConsoleHTML.escape(title))</summary><table>\(rows)</table></details></figure>
            """)
    }

    private static func format(_ value: Double) -> String { String(format: "%.1f", value) }

    /// Room for the longest label (about 7 px a character at 12 px), 90 to 150 px: a label is
    /// never cut off, and the bars keep at least half the chart.
    static func labelWidth(for bars: [Bar]) -> Double {
        let longest = bars.map { $0.label.unicodeScalars.filter { !(0x2066...0x2069).contains($0.value) }.count }.max() ?? 0
        return min(150, max(90, Double(longest) * 7 + 10))
    }
}
