/// The scalars that have a property of the standard library's, with those of the two planes that
/// hold nearly every assigned character (below U+20000) kept a bit each: looking a property up
/// costs a search per scalar, this a load. Building one costs a few milliseconds, once.
public struct ScalarSet: Sendable {
    private static let tabled = 0x20000
    private let bits: [UInt64]
    private let property: @Sendable (Unicode.Scalar) -> Bool

    public init(_ property: @escaping @Sendable (Unicode.Scalar) -> Bool) {
        var bits = [UInt64](repeating: 0, count: Self.tabled / 64)
        for value in 0..<Self.tabled {
            guard let scalar = Unicode.Scalar(value), property(scalar) else { continue }
            bits[value >> 6] |= 1 << (value & 63)
        }
        self.bits = bits
        self.property = property
    }

    public func contains(_ scalar: Unicode.Scalar) -> Bool {
        let value = Int(scalar.value)
        return value < Self.tabled ? bits[value >> 6] & (1 << (value & 63)) != 0 : property(scalar)
    }
}
