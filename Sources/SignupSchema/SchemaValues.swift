import SignupCore
import Foundation
import SignupProtocol

/// A JSON number read exactly enough for JSON Schema: `Decimal` (38 significant digits) where it
/// fits, `Double` beyond. 1 and 1.0 are the same number, and an integer is any number without a
/// fractional part.
package struct SchemaNumber: Sendable {
    package let decimal: Decimal?
    package let double: Double

    package init?(_ text: String) {
        guard let double = Double(text) else { return nil }
        self.double = double
        // Decimal's exponent stops at ±127; past that (1e308) the double is what there is.
        let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
        self.decimal = decimal.flatMap { $0.isNaN || !$0.isFinite ? nil : $0 }
    }

    package init(_ integer: Int) {
        decimal = Decimal(integer)
        double = Double(integer)
    }

    package var isInteger: Bool {
        if let decimal {
            var copy = decimal, rounded = Decimal()
            NSDecimalRound(&rounded, &copy, 0, .plain)
            return rounded == decimal
        }
        return double.isFinite ? double.rounded(.towardZero) == double : false
    }

    /// -1, 0 or 1 as this number is below, equal to or above `other`.
    package func compare(_ other: SchemaNumber) -> Int {
        if let left = decimal, let right = other.decimal { return left < right ? -1 : left == right ? 0 : 1 }
        return double < other.double ? -1 : double == other.double ? 0 : 1
    }

    /// Whether this number divided by `divisor` (above zero) is an integer.
    package func isMultiple(of divisor: SchemaNumber) -> Bool {
        if let value = decimal, let by = divisor.decimal, by != 0 {
            let quotient = value / by
            if !quotient.isNaN && quotient.isFinite {
                return SchemaNumber(decimal: quotient).isInteger
            }
        }
        let quotient = double / divisor.double
        // A quotient too large for a double to hold is not known to be whole: not a multiple.
        guard quotient.isFinite else { return false }
        return quotient.rounded(.towardZero) == quotient
    }

    private init(decimal: Decimal) {
        self.decimal = decimal
        double = NSDecimalNumber(decimal: decimal).doubleValue
    }
}

extension JSON {
    /// Equality as JSON Schema's `const`, `enum` and `uniqueItems` mean it: numbers by value,
    /// objects whatever their members' order.
    package func isSchemaEqual(to other: JSON) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case (.bool(let left), .bool(let right)): return left == right
        // Code point by code point, as JSON compares strings (Swift's == is canonical equivalence).
        case (.string(let left), .string(let right)): return left.utf8.elementsEqual(right.utf8)
        case (.number(let left), .number(let right)):
            if left == right { return true }
            guard let left = SchemaNumber(left), let right = SchemaNumber(right) else { return false }
            return left.compare(right) == 0
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { $0.isSchemaEqual(to: $1) }
        case (.object(let left), .object(let right)):
            guard left.count == right.count else { return false }
            for member in left {
                guard let match = right.first(where: { $0.key == member.key }), member.value.isSchemaEqual(to: match.value) else { return false }
            }
            return true
        default: return false
        }
    }

    /// A text equal for two values exactly when `isSchemaEqual` holds: members sorted by key,
    /// numbers by value (`1`, `1.0` and `1e0` alike).
    package var canonicalText: String {
        switch self {
        case .null: return "n"
        case .bool(let value): return value ? "t" : "f"
        case .string(let text): return "s" + text.utf8.count.description + ":" + text
        case .number(let text):
            guard let number = SchemaNumber(text) else { return "x" + text }
            if let decimal = number.decimal { return "d" + decimal.description }
            return "g" + number.double.description
        case .array(let elements): return "[" + elements.map(\.canonicalText).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.sorted { $0.key < $1.key }.map { "s\($0.key.utf8.count):\($0.key)=" + $0.value.canonicalText }.joined(separator: ",") + "}"
        }
    }

    /// The number, if this is one.
    package var schemaNumber: SchemaNumber? {
        if case .number(let text) = self { SchemaNumber(text) } else { nil }
    }

    /// The members, if this is an object.
    package var members: [Member]? {
        if case .object(let members) = self { members } else { nil }
    }

    /// The elements, if this is an array.
    package var elements: [JSON]? {
        if case .array(let elements) = self { elements } else { nil }
    }
}

/// RFC 6901 JSON Pointers: how a location in an instance or a schema is written.
package enum JSONPointer {
    /// `token` escaped to stand in a pointer.
    package static func escape(_ token: String) -> String {
        guard token.contains("~") || token.contains("/") else { return token }
        return token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// The reference tokens of `pointer` (already percent-decoded when it came from a URI
    /// fragment); nil when it is not a pointer.
    package static func tokens(_ pointer: String) -> [String]? {
        if pointer.isEmpty { return [] }
        guard pointer.hasPrefix("/") else { return nil }
        return pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
    }
}
