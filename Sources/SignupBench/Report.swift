/// One line of the benchmark's table: a figure, its baseline from the same run, and the target.
struct Row {
    var figure: String
    var measured: String
    var baseline: String
    var ratio: String
    var target: String
    /// nil where the issue sets no target for the figure.
    var met: Bool?
}

enum Report {
    static func print(_ rows: [Row], machine: String) {
        let header = Row(figure: "figure", measured: "measured", baseline: "baseline (same run)", ratio: "ratio", target: "target", met: nil)
        let all = [header] + rows
        func width(_ column: (Row) -> String) -> Int { all.map { column($0).count }.max() ?? 0 }
        let widths = [width(\.figure), width(\.measured), width(\.baseline), width(\.ratio), width(\.target)]
        func line(_ row: Row, verdict: String) -> String {
            let cells = [row.figure, row.measured, row.baseline, row.ratio, row.target]
            return "| " + zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: " | ")
                + " | " + verdict.padding(toLength: 4, withPad: " ", startingAt: 0) + " |"
        }
        Swift.print(machine)
        Swift.print(line(header, verdict: "met"))
        Swift.print("|" + (widths + [4]).map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|")
        for row in rows {
            Swift.print(line(row, verdict: row.met.map { $0 ? "yes" : "no" } ?? "—"))
        }
    }

    static func rate(_ perSecond: Double, _ unit: String) -> String {
        perSecond >= 1e6 ? String(format: "%.2f M %@/s", perSecond / 1e6, unit) : String(format: "%.0f k %@/s", perSecond / 1e3, unit)
    }

    static func duration(_ nanoseconds: Double) -> String {
        if nanoseconds >= 1e6 { return String(format: "%.2f ms", nanoseconds / 1e6) }
        if nanoseconds >= 1e3 { return String(format: "%.1f µs", nanoseconds / 1e3) }
        return String(format: "%.0f ns", nanoseconds)
    }

    static func megabytes(_ bytes: Int) -> String {
        String(format: "%.1f MiB", Double(bytes) / 1_048_576)
    }

    static func times(_ ratio: Double) -> String {
        String(format: "%.2f×", ratio)
    }
}
