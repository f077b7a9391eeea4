import Foundation

/// The SVG primitives the plot is drawn with.
extension BenchPlot {
    static func frame(left: Double, width: Double) -> [String] {
        [
            line(left, top + plotHeight, left + width, top + plotHeight, "black"),
            line(left, top, left, top + plotHeight, "black"),
        ]
    }

    static func line(
        _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ colour: String, dashed: Bool = false,
        width: Double = 1
    ) -> String {
        String(
            format: "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%@\" stroke-width=\"%.1f\"%@/>",
            x1, y1, x2, y2, colour, width, dashed ? " stroke-dasharray=\"6 4\"" : "")
    }

    static func polyline(_ points: [(Double, Double)], _ colour: String, dashed: Bool = false) -> String {
        let coordinates = points.map { String(format: "%.1f,%.1f", $0.0, $0.1) }.joined(separator: " ")
        let dash = dashed ? " stroke-dasharray=\"6 4\"" : ""
        return "<polyline fill=\"none\" stroke=\"\(colour)\" stroke-width=\"2\"\(dash) points=\"\(coordinates)\"/>"
    }

    static func text(
        _ x: Double, _ y: Double, _ content: String, anchor: String = "start", colour: String = "black", size: Int = 12,
        bold: Bool = false, rotate: Bool = false
    ) -> String {
        let transform = rotate ? String(format: " transform=\"rotate(-90 %.1f %.1f)\"", x, y) : ""
        return String(
            format: "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" %@ fill=\"%@\" text-anchor=\"%@\"%@%@>",
            x, y, size, font, colour, anchor, bold ? " font-weight=\"bold\"" : "", transform) + escaped(content)
            + "</text>"
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    /// Ticks at 1, 2 or 5 times a power of ten, from 0 to at least `upTo`.
    static func niceTicks(upTo maximum: Double) -> [Double] {
        let rough = max(maximum, 1e-9) / 5
        let power = pow(10, floor(log10(rough)))
        let step = [1.0, 2, 5, 10].map { $0 * power }.first { $0 >= rough } ?? rough
        return stride(from: 0, through: maximum + step * 0.999, by: step).map { $0 }
    }

    static func trim(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%g", value)
    }

    static func grouped(_ value: Int) -> String {
        let digits = String(value)
        return digits.reversed().enumerated().reduce(into: "") { text, element in
            if element.offset > 0 && element.offset % 3 == 0 { text.insert(",", at: text.startIndex) }
            text.insert(element.element, at: text.startIndex)
        }
    }
}
