#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// signup-echo: the benchmark's baseline. Reads stdin and writes every complete line straight back
// to stdout, buffered per read the way a well-written line server is, and nothing else: the cost
// of the pipe and the process, without parsing, validation or JSON.

let capacity = 1 << 16
let input = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
var output: [UInt8] = []
output.reserveCapacity(capacity * 2)
var pending: [UInt8] = []

func writeAll(_ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { buffer in
        var offset = 0
        while offset < buffer.count {
            let written = write(1, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                exit(0)
            }
            offset += written
        }
    }
}

while true {
    let count = read(0, input, capacity)
    if count < 0 && errno == EINTR { continue }
    if count <= 0 { break }
    var lineStart = 0
    for index in 0..<count where input[index] == UInt8(ascii: "\n") {
        if !pending.isEmpty {
            output.append(contentsOf: pending)
            pending.removeAll(keepingCapacity: true)
        }
        output.append(contentsOf: UnsafeBufferPointer(start: input + lineStart, count: index + 1 - lineStart))
        lineStart = index + 1
    }
    pending.append(contentsOf: UnsafeBufferPointer(start: input + lineStart, count: count - lineStart))
    if !output.isEmpty {
        writeAll(output)
        output.removeAll(keepingCapacity: true)
    }
}
