/// Bytes read from a child or a socket and not yet taken, cut into lines as they are asked for.
struct LineBuffer {
    var bytes: [UInt8] = []

    /// The next whole line, without its newline; `read` gives more bytes, or nil at the end.
    mutating func nextLine(reading read: () -> [UInt8]?) -> String? {
        while true {
            if let newline = bytes.firstIndex(of: 0x0A) {
                let line = String(decoding: bytes[..<newline], as: UTF8.self)
                bytes.removeSubrange(...newline)
                return line
            }
            guard let more = read() else { return nil }
            bytes += more
        }
    }
}

/// Something a test reads line by line.
protocol LineReading: AnyObject {
    /// The next line, or nil at the end.
    func readLine() -> String?
}

extension LineReading {
    /// Reads lines until one satisfies `isWanted`; every line read, that one last.
    func readLines(until isWanted: (String) -> Bool) -> [String] {
        var lines: [String] = []
        while let line = readLine() {
            lines.append(line)
            if isWanted(line) { break }
        }
        return lines
    }

    /// Reads lines until `count` of them have satisfied `isWanted`; every line read.
    func readLines(count: Int, until isWanted: (String) -> Bool) -> [String] {
        var lines: [String] = [], found = 0
        while found < count, let line = readLine() {
            lines.append(line)
            if isWanted(line) { found += 1 }
        }
        return lines
    }
}
