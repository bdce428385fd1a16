/// The hash of a form id that the server's form table keys on: FNV-1a (a few instructions a
/// byte) from a seed drawn per process, so that a client cannot pick ids that collide. The codec
/// computes it as it reads an edit line (`FormEditLine.formHash`), on the reading thread, so the
/// loop's lookup does not hash the id again.
package enum FormIDHash {
    /// Drawn once per process, for every table that is not given a seed of its own.
    package static let processSeed = UInt64.random(in: .min ... .max)

    /// The hash of `id` with the process's seed.
    package static func process(_ id: String) -> UInt64 {
        hash(of: id, seed: processSeed)
    }

    package static func hash(of id: String, seed: UInt64) -> UInt64 {
        // Over the bytes in place where the string has them so (native strings do, small ones
        // too), rather than through the UTF-8 view.
        let start: UInt64 = 0xcbf2_9ce4_8422_2325 ^ seed
        var hash = id.utf8.withContiguousStorageIfAvailable { fnv1a($0, from: start) }
            ?? fnv1a(id.utf8, from: start)
        // FNV's low bits mix poorly, and they choose the slot: finish with MurmurHash3's mixer.
        hash = (hash ^ (hash >> 33)) &* 0xff51_afd7_ed55_8ccd
        hash = (hash ^ (hash >> 33)) &* 0xc4ce_b9fe_1a85_ec53
        return hash ^ (hash >> 33)
    }

    private static func fnv1a(_ bytes: some Sequence<UInt8>, from start: UInt64) -> UInt64 {
        var hash = start
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
