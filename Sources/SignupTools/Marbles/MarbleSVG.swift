import SignupServer

/// Draws a `MarbleDiagram` as SVG 1.1: lanes top to bottom, time left to right, in plain
/// elements any renderer draws (no scripts, no external fonts or styles).
struct MarbleSVG {
    let diagram: MarbleDiagram
    var title: String

    static let laneTitleWidth = 200.0
    static let plotWidth = 960.0
    static let rightMargin = 90.0
    static let top = 56.0
    static let laneHeight = 44.0
    static let barRowHeight = 26.0

    /// Where `time` falls on the x axis.
    func x(_ time: Int64) -> Double {
        let span = Double(max(1, diagram.to - diagram.from))
        return Self.laneTitleWidth + Double(time - diagram.from) / span * Self.plotWidth
    }

    /// The stacking row of each backend bar, so bars that overlap in time sit one above another.
    static func rows(of bars: [MarbleDiagram.Bar]) -> [Int] {
        var rowEnds: [Int64] = []
        return bars.map { bar in
            if let row = rowEnds.firstIndex(where: { $0 < bar.start }) {
                rowEnds[row] = bar.end
                return row
            }
            rowEnds.append(bar.end)
            return rowEnds.count - 1
        }
    }

    func render() -> String {
        var body = ""
        var y = Self.top
        var laneTops: [Double] = []
        for lane in diagram.lanes {
            laneTops.append(y)
            let rows = (Self.rows(of: lane.bars).max() ?? 0) + 1
            y += Self.laneHeight + Double(rows - 1) * Self.barRowHeight
        }
        let height = y + 60
        let width = Self.laneTitleWidth + Self.plotWidth + Self.rightMargin
        body += axis(bottom: y)
        for (lane, laneTop) in zip(diagram.lanes, laneTops) { body += draw(lane, top: laneTop) }
        body += legend(y: y + 40)
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="\(Self.number(width))" height="\(Self.number(height))" \
            viewBox="0 0 \(Self.number(width)) \(Self.number(height))" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="11">
            <rect x="0" y="0" width="\(Self.number(width))" height="\(Self.number(height))" fill="#ffffff"/>
            <text x="12" y="22" font-size="14" font-weight="bold">\(Self.escape(title))</text>
            \(body)</svg>

            """
    }

    private func axis(bottom: Double) -> String {
        var svg = ""
        let step = Self.tickStep(for: diagram.to - diagram.from)
        var tick = (diagram.from + step - 1) / step * step
        if diagram.from <= 0 { tick = 0 }
        while tick <= diagram.to {
            let tx = Self.number(x(tick))
            svg += ##"<line x1="\##(tx)" y1="\##(Self.number(Self.top - 10))" x2="\##(tx)" y2="\##(Self.number(bottom))" stroke="#e4e4e4"/>"## + "\n"
            svg += ##"<text x="\##(tx)" y="\##(Self.number(bottom + 14))" text-anchor="middle" fill="#555555">\##(Self.timeLabel(tick))</text>"## + "\n"
            tick += step
        }
        svg += ##"<line x1="\##(Self.number(Self.laneTitleWidth))" y1="\##(Self.number(bottom))" x2="\##(Self.number(Self.laneTitleWidth + Self.plotWidth))" y2="\##(Self.number(bottom))" stroke="#888888"/>"## + "\n"
        return svg
    }

    private func draw(_ lane: MarbleDiagram.Lane, top: Double) -> String {
        let middle = top + Self.laneHeight / 2
        var svg = #"<g class="lane">"# + "\n"
        svg += ##"<text x="\##(Self.number(Self.laneTitleWidth - 10))" y="\##(Self.number(middle + 4))" text-anchor="end" fill="#222222">\##(Self.escape(lane.title))</text>"## + "\n"
        svg += ##"<line x1="\##(Self.number(Self.laneTitleWidth))" y1="\##(Self.number(middle))" x2="\##(Self.number(Self.laneTitleWidth + Self.plotWidth))" y2="\##(Self.number(middle))" stroke="#bbbbbb"/>"## + "\n"
        for span in lane.spans {
            let start = x(max(span.start, diagram.from)), end = x(min(span.end, diagram.to))
            svg += ##"<rect class="enabled" x="\##(Self.number(start))" y="\##(Self.number(middle - 7))" width="\##(Self.number(max(2, end - start)))" height="14" fill="#2e9d57" fill-opacity="0.35"/>"## + "\n"
        }
        for (bar, row) in zip(lane.bars, Self.rows(of: lane.bars)) {
            svg += draw(bar, middle: middle + Double(row) * Self.barRowHeight)
        }
        var previousX = -1000.0
        var flipped = false
        for marble in lane.marbles {
            let cx = x(marble.time)
            flipped = cx - previousX < 56 ? !flipped : false
            previousX = cx
            let labelY = flipped ? middle + 20 : middle - 11
            svg += ##"<circle class="marble \##(marble.tone.rawValue)" cx="\##(Self.number(cx))" cy="\##(Self.number(middle))" r="6" fill="\##(Self.color(marble.tone))" stroke="#333333" stroke-width="0.8"/>"## + "\n"
            svg += ##"<text x="\##(Self.number(cx))" y="\##(Self.number(labelY))" text-anchor="middle" fill="#333333">\##(Self.escape(Self.shortened(marble.label)))</text>"## + "\n"
        }
        return svg + "</g>\n"
    }

    private func draw(_ bar: MarbleDiagram.Bar, middle: Double) -> String {
        let start = x(max(bar.start, diagram.from)), end = x(min(bar.end, diagram.to))
        let width = max(3, end - start)
        let fill = switch bar.ending {
        case .answered: "#4a90d9"
        case .cancelled: "#aaaaaa"
        case .stale: "#f0ad4e"
        case .open: "#ffffff"
        }
        var svg = ##"<rect class="call \##(bar.ending.rawValue)" x="\##(Self.number(start))" y="\##(Self.number(middle - 6))" width="\##(Self.number(width))" height="12" fill="\##(fill)" stroke="#555555" stroke-width="0.8"\##(bar.ending == .open ? ##" stroke-dasharray="4 2""## : "")/>"## + "\n"
        svg += ##"<text x="\##(Self.number(start))" y="\##(Self.number(middle - 9))" fill="#333333">\##(Self.escape(Self.shortened(bar.label, to: 28)))</text>"## + "\n"
        switch bar.ending {
        case .cancelled:
            svg += ##"<line class="struck" x1="\##(Self.number(start - 3))" y1="\##(Self.number(middle))" x2="\##(Self.number(start + width + 3))" y2="\##(Self.number(middle))" stroke="#c0392b" stroke-width="2"/>"## + "\n"
        case .stale:
            svg += ##"<text class="stale" x="\##(Self.number(start + width + 4))" y="\##(Self.number(middle + 4))" fill="#c0392b" font-weight="bold">✕ stale: \##(Self.escape(bar.answer)) dropped</text>"## + "\n"
            return svg
        default: break
        }
        svg += ##"<text x="\##(Self.number(start + width + 4))" y="\##(Self.number(middle + 4))" fill="#555555">\##(Self.escape(bar.answer))</text>"## + "\n"
        return svg
    }

    private func legend(y: Double) -> String {
        let items: [(String, String)] = [
            (Self.color(.input), "value typed"), (Self.color(.empty), "empty"), (Self.color(.validating), "validating"),
            (Self.color(.ok), "ok"), (Self.color(.failed), "failed"),
        ]
        var svg = ""
        var lx = Self.laneTitleWidth
        for (color, text) in items {
            svg += ##"<circle cx="\##(Self.number(lx))" cy="\##(Self.number(y - 4))" r="5" fill="\##(color)" stroke="#333333" stroke-width="0.8"/>"##
            svg += ##"<text x="\##(Self.number(lx + 9))" y="\##(Self.number(y))">\##(text)</text>"## + "\n"
            lx += 100
        }
        svg += ##"<rect x="\##(Self.number(lx))" y="\##(Self.number(y - 9))" width="24" height="10" fill="#4a90d9" stroke="#555555" stroke-width="0.8"/>"##
        svg += ##"<text x="\##(Self.number(lx + 28))" y="\##(Self.number(y))">backend call, asked → answered; struck through: withdrawn (a stale check)</text>"## + "\n"
        return svg
    }

    static func color(_ tone: MarbleDiagram.Tone) -> String {
        switch tone {
        case .input: "#4a90d9"
        case .empty: "#cccccc"
        case .validating: "#f0ad4e"
        case .ok: "#2e9d57"
        case .failed: "#d9534f"
        }
    }

    /// A round step giving about ten ticks over `span` milliseconds.
    static func tickStep(for span: Int64) -> Int64 {
        let steps: [Int64] = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000]
        return steps.first { span / $0 <= 12 } ?? max(1, span / 10)
    }

    static func timeLabel(_ milliseconds: Int64) -> String {
        if milliseconds != 0, milliseconds % 1000 == 0 { return "\(milliseconds / 1000) s" }
        return "\(milliseconds) ms"
    }

    static func shortened(_ text: String, to limit: Int = 14) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }

    /// A coordinate with at most one decimal, the same on every machine.
    static func number(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        let whole = Int64(tenths) / 10, fraction = abs(Int64(tenths) % 10)
        return fraction == 0 ? "\(whole)" : "\(tenths < 0 && whole == 0 ? "-" : "")\(whole).\(fraction)"
    }

    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            default:
                // Control characters are not allowed in XML 1.0 text.
                if let scalar = character.unicodeScalars.first, scalar.value < 0x20 { escaped += "␣" } else { escaped.append(character) }
            }
        }
        return escaped
    }
}
