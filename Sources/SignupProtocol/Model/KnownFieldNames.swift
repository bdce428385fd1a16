#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The field names of the form kinds the server offers, so that reading an edit line reuses the
/// forms' own strings. A name of more than 15 bytes (`repeatedPassword`) does not fit in a small
/// string: read afresh, it was allocated on the reading thread, freed on the loop, and compared
/// there byte by byte with the form's name, on every line that named it. A shorter one is cheaper
/// found than decoded and checked.
package struct KnownFieldNames: Sendable {
    /// The names, by position.
    package let names: [String]

    /// The names' UTF-8 bytes one after another, and where each starts and ends, so that a lookup
    /// compares bytes of same-length names only, in place.
    private let spellings: [UInt8]
    private let ends: [Int]

    /// More names are read afresh: a lookup scans the names.
    private static let mostNames = 64

    /// None: every name is read afresh.
    package init() {
        names = []
        spellings = []
        ends = []
    }

    /// `names`, the first `mostNames` of them, each once.
    package init(_ names: some Sequence<String>) {
        var seen = Set<String>()
        self.names = Array(names.filter { seen.insert($0).inserted }.prefix(Self.mostNames))
        spellings = self.names.flatMap(\.utf8)
        var end = 0
        ends = self.names.map { name in
            end += name.utf8.count
            return end
        }
    }

    /// The known name spelled by `bytes`, if there is one.
    package func name(spelledBy bytes: UnsafeBufferPointer<UInt8>) -> String? {
        position(spelledBy: UnsafeRawBufferPointer(bytes)).map { names[$0] }
    }

    /// Where the known name spelled by `bytes` is among the names given, if it is one of the
    /// first `mostNames` of them.
    package func position(spelledBy bytes: UnsafeRawBufferPointer) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        return spellings.withUnsafeBufferPointer { spellings in
            var start = 0
            for position in ends.indices {
                let end = ends[position]
                defer { start = end }
                if end - start == bytes.count, memcmp(spellings.baseAddress! + start, base, bytes.count) == 0 {
                    return position
                }
            }
            return nil
        }
    }
}
