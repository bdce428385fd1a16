import Foundation

/// What a field that holds a number asks of it (a JSON Schema form's `type: number` or
/// `integer`, `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`). The
/// value is read as JSON writes a number (`-12`, `3.5`, `1e3`, no spaces, no `+`), exactly up to
/// 38 significant digits.
public enum NumberRule: Hashable, Sendable {
    /// The value is a number; an integer when `integer` (any number without a fraction: `2.0`).
    case isNumber(integer: Bool)
    case atLeast(Decimal, exclusive: Bool)
    case atMost(Decimal, exclusive: Bool)
    case multipleOf(Decimal)

    /// Whether `value` meets the rule. A value that is not a number meets only the bounds, which
    /// leave it to `isNumber` to refuse.
    func admits(_ value: String) -> Bool {
        guard let number = Self.number(value) else {
            if case .isNumber = self { return false }
            return true
        }
        switch self {
        case .isNumber(let integer): return !integer || Self.isWhole(number)
        case .atLeast(let bound, let exclusive): return exclusive ? number > bound : number >= bound
        case .atMost(let bound, let exclusive): return exclusive ? number < bound : number <= bound
        case .multipleOf(let divisor):
            guard divisor > 0 else { return false }
            let quotient = number / divisor
            return !quotient.isNaN && Self.isWhole(quotient)
        }
    }

    /// The params of a failure's message: the bound or divisor.
    var params: [String: JSONValue] {
        switch self {
        case .isNumber: [:]
        case .atLeast(let bound, _): ["min": Self.json(bound)]
        case .atMost(let bound, _): ["max": Self.json(bound)]
        case .multipleOf(let divisor): ["multipleOf": Self.json(divisor)]
        }
    }

    /// `text` read as a JSON number; nil for anything else (and for numbers past ±10^127).
    public static func number(_ text: String) -> Decimal? {
        var bytes = text.utf8[...]
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        let integerPart = bytes.prefix { $0 >= 0x30 && $0 <= 0x39 }
        guard !integerPart.isEmpty, integerPart.count == 1 || integerPart.first != 0x30 else { return nil }
        bytes = bytes.dropFirst(integerPart.count)
        if bytes.first == UInt8(ascii: ".") {
            let fraction = bytes.dropFirst().prefix { $0 >= 0x30 && $0 <= 0x39 }
            guard !fraction.isEmpty else { return nil }
            bytes = bytes.dropFirst(1 + fraction.count)
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            let exponent = bytes.prefix { $0 >= 0x30 && $0 <= 0x39 }
            guard !exponent.isEmpty, exponent.count <= 4 else { return nil }
            bytes = bytes.dropFirst(exponent.count)
        }
        guard bytes.isEmpty, let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")),
              !decimal.isNaN, decimal.isFinite else { return nil }
        return decimal
    }

    private static func isWhole(_ number: Decimal) -> Bool {
        var copy = number, rounded = Decimal()
        NSDecimalRound(&rounded, &copy, 0, .plain)
        return rounded == number
    }

    private static func json(_ number: Decimal) -> JSONValue {
        if isWhole(number), let whole = Int64(exactly: NSDecimalNumber(decimal: number).int64Value), Decimal(whole) == number {
            return .int(whole)
        }
        return .double(NSDecimalNumber(decimal: number).doubleValue)
    }
}
