#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The long field names of the form kinds the server offers, so that reading an edit line reuses
/// the forms' own strings. A name of more than 15 bytes (`repeatedPassword`) does not fit in a
/// small string: read afresh, it was allocated on the reading thread, freed on the loop, and
/// compared there byte by byte with the form's name, on every line that named it.
struct KnownFieldNames: Sendable {
    private let names: [String]

    /// None: every name is read afresh.
    init() {
        names = []
    }

    init(_ catalog: FormCatalog) {
        var seen = Set<String>()
        names = catalog.definitions.flatMap { $0.fields.map(\.name) }
            .filter { $0.utf8.count > Self.longestSmallString && seen.insert($0).inserted }
    }

    /// The known name spelled by `bytes`, if there is one.
    func name(spelledBy bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard bytes.count > Self.longestSmallString, let base = bytes.baseAddress else { return nil }
        for name in names where name.utf8.count == bytes.count {
            let matches = name.utf8.withContiguousStorageIfAvailable { memcmp($0.baseAddress!, base, bytes.count) == 0 }
                ?? name.utf8.elementsEqual(bytes)
            if matches { return name }
        }
        return nil
    }

    /// A Swift string of up to this many UTF-8 bytes is held in place, allocating nothing.
    private static let longestSmallString = 15
}
