/// A URI reference split into RFC 3986's five parts, resolved against a base by §5.2 (Foundation's
/// URL does not resolve `urn:` and `tag:` references as the RFC does, and JSON Schema's `$id`s use
/// them).
package struct SchemaURI: Hashable, Sendable, CustomStringConvertible {
    package var scheme: String?
    package var authority: String?
    package var path: String
    package var query: String?
    package var fragment: String?

    /// Splits `text` as RFC 3986 appendix B does; every string is some URI reference.
    package init(_ text: String) {
        var rest = Substring(text)
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let mark = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: mark)...])
            rest = rest[..<mark]
        }
        if let colon = rest.firstIndex(of: ":"), !rest[..<colon].contains(where: { $0 == "/" }),
           let first = rest.first, first.isASCII, first.isLetter,
           rest[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) {
            scheme = String(rest[..<colon])
            rest = rest[rest.index(after: colon)...]
        }
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            let end = rest.firstIndex(of: "/") ?? rest.endIndex
            authority = String(rest[..<end])
            rest = rest[end...]
        }
        path = String(rest)
    }

    private init(scheme: String?, authority: String?, path: String, query: String?, fragment: String?) {
        (self.scheme, self.authority, self.path, self.query, self.fragment) = (scheme, authority, path, query, fragment)
    }

    /// Whether the reference has a scheme (an absolute URI, perhaps with a fragment).
    package var isAbsolute: Bool { scheme != nil }

    /// The same URI without its fragment.
    package var withoutFragment: SchemaURI {
        var copy = self
        copy.fragment = nil
        return copy
    }

    /// `reference` resolved against this URI as a base (RFC 3986 §5.2.2, strict).
    package func resolving(_ reference: String) -> SchemaURI {
        let reference = SchemaURI(reference)
        if reference.scheme != nil {
            return SchemaURI(scheme: reference.scheme, authority: reference.authority, path: Self.removingDotSegments(reference.path),
                             query: reference.query, fragment: reference.fragment)
        }
        if reference.authority != nil {
            return SchemaURI(scheme: scheme, authority: reference.authority, path: Self.removingDotSegments(reference.path),
                             query: reference.query, fragment: reference.fragment)
        }
        if reference.path.isEmpty {
            return SchemaURI(scheme: scheme, authority: authority, path: path, query: reference.query ?? query, fragment: reference.fragment)
        }
        let merged: String
        if reference.path.hasPrefix("/") {
            merged = reference.path
        } else if authority != nil && path.isEmpty {
            merged = "/" + reference.path
        } else if let slash = path.lastIndex(of: "/") {
            merged = path[...slash] + reference.path
        } else {
            merged = reference.path
        }
        return SchemaURI(scheme: scheme, authority: authority, path: Self.removingDotSegments(merged), query: reference.query,
                         fragment: reference.fragment)
    }

    /// RFC 3986 §5.2.4.
    static func removingDotSegments(_ path: String) -> String {
        guard path.contains(".") else { return path }
        var input = Substring(path)
        var output: [Substring] = []
        while !input.isEmpty {
            if input.hasPrefix("../") { input = input.dropFirst(3) }
            else if input.hasPrefix("./") { input = input.dropFirst(2) }
            else if input.hasPrefix("/./") { input = input.dropFirst(2) }
            else if input == "/." { input = "/" }
            else if input.hasPrefix("/../") {
                input = input.dropFirst(3)
                _ = output.popLast()
            } else if input == "/.." {
                input = "/"
                _ = output.popLast()
            } else if input == "." || input == ".." {
                input = ""
            } else {
                let start = input.hasPrefix("/") ? input.index(after: input.startIndex) : input.startIndex
                let end = input[start...].firstIndex(of: "/") ?? input.endIndex
                output.append(input[..<end])
                input = input[end...]
            }
        }
        return output.joined()
    }

    /// RFC 3986 §5.3.
    package var description: String {
        var text = ""
        if let scheme { text += scheme + ":" }
        if let authority { text += "//" + authority }
        text += path
        if let query { text += "?" + query }
        if let fragment { text += "#" + fragment }
        return text
    }
}
