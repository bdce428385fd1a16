import Foundation
import SignupCore
import SignupProtocol
import Testing
@testable import SignupServer

/// The trace's times (`UTCTimestamp`): the text Foundation's ISO 8601 formatter writes, to the
/// millisecond, across leap days, centuries and the epoch.
@Suite struct UTCTimestampTests {
    @Test func writesWhatTheISO8601FormatterWrites() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var instants: [Int64] = [0, 1, 999, 86_399_999, 86_400_000, 951_782_400_000, 951_868_799_999, 4_107_542_400_000,
                                 1_798_370_342_234, 253_402_300_799_999]
        var random = SeededGenerator(seed: 39)
        for _ in 0..<2_000 { instants.append(Int64(random.next() % 253_402_300_800_000)) }
        let differing = instants.filter { milliseconds in
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1_000)
            return UTCTimestamp(milliseconds: milliseconds).text != formatter.string(from: date)
        }
        #expect(differing == [])
        #expect(UTCTimestamp(milliseconds: 951_782_400_000).text == "2000-02-29T00:00:00.000Z")
        #expect(UTCTimestamp(milliseconds: 1_798_370_342_234).text == "2026-12-27T11:19:02.234Z")
    }

    /// The trace opens its records through a cache of the last millisecond's opening: each the
    /// stamp's `text`, quoted, then the connection and the direction, whether the stamps stay in
    /// one millisecond, move on, go back, or fall before the epoch, and the connection changes.
    @Test func theCacheWritesWhatTheStampWrites() {
        var instants: [Int64] = [-1_001, -1_000, -999, -1, 0, 1, 999, 1_000, 1_001, 59_999, 60_000, 86_399_999, 86_400_000, 86_399_999]
        var random = SeededGenerator(seed: 58)
        var time: Int64 = 1_798_370_342_000
        for _ in 0..<2_000 {
            // Mostly steps within a second, now and then a jump either way.
            time += random.next() % 10 == 0 ? Int64(random.next() % 200_000) - 100_000 : Int64(random.next() % 7)
            instants.append(time)
        }
        var cache = RecordHeadCache(direction: #","dir":"in""#)
        let differing = instants.enumerated().filter { index, milliseconds in
            let connection = index % 7 < 2 ? nil : index % 7
            var cached = JSONWriter()
            cache.write(at: milliseconds, connection: connection, to: &cached)
            let expected = #"{"time":"\#(UTCTimestamp(milliseconds: milliseconds).text)""#
                + (connection.map { #","connection":\#($0)"# } ?? "") + #","dir":"in""#
            return String(decoding: cached.bytes, as: UTF8.self) != expected
        }
        #expect(differing.isEmpty, "\(differing.count) differ, the first: \(differing.prefix(5))")
    }

    @Test func daysBeforeTheEpochCountBack() {
        #expect(UTCTimestamp(milliseconds: -1).text == "1969-12-31T23:59:59.999Z")
        #expect(UTCTimestamp.civilDate(daysSince1970: -719_468) == (0, 3, 1))
    }
}
