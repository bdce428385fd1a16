/// JSON Schema's regular expressions are ECMA-262's; they run on ICU's engine. Where the two read
/// the same text differently, the pattern is rewritten before it is compiled:
/// - `\d`, `\D`, `\w`, `\W` are ASCII in ECMA-262 (`[0-9]`, `[A-Za-z0-9_]`), Unicode in ICU;
/// - `$` matches only at the very end in ECMA-262 (without the `m` flag), also before a final
///   line break in ICU: it becomes `\z`.
/// Other differences are listed in protocol.md (§ JSON Schema): ICU also accepts syntax
/// ECMA-262 refuses (possessive quantifiers, `\Q…\E`), which such a pattern then means as ICU does.
package enum ECMAPattern {
    package static func translated(_ pattern: String) -> String {
        guard pattern.contains("\\") || pattern.contains("$") else { return pattern }
        var output = ""
        var inClass = false
        var scalars = pattern.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            switch scalar {
            case "\\":
                guard let escaped = scalars.next() else {
                    output.unicodeScalars.append(scalar)
                    continue
                }
                switch (escaped, inClass) {
                case ("d", false): output += "[0-9]"
                case ("D", false): output += "[^0-9]"
                case ("w", false): output += "[A-Za-z0-9_]"
                case ("W", false): output += "[^A-Za-z0-9_]"
                case ("d", true): output += "0-9"
                case ("w", true): output += "A-Za-z0-9_"
                default:
                    output.unicodeScalars.append(scalar)
                    output.unicodeScalars.append(escaped)
                }
            case "[" where !inClass:
                inClass = true
                output.unicodeScalars.append(scalar)
            case "]" where inClass:
                inClass = false
                output.unicodeScalars.append(scalar)
            case "$" where !inClass:
                output += "\\z"
            default:
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}
