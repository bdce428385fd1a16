extension Options {
    /// `schemas DIR [--check]`.
    static func parseSchemas(_ arguments: [String]) throws(UsageError) -> Invocation {
        var directory: String?
        var check = false
        for argument in arguments {
            if argument == "--check" {
                check = true
            } else if argument.hasPrefix("-") {
                throw UsageError(description: "unknown option '\(argument)' for schemas")
            } else if directory == nil {
                directory = argument
            } else {
                throw UsageError(description: "schemas takes one directory, not also '\(argument)'")
            }
        }
        guard let directory, !directory.isEmpty else { throw UsageError(description: "schemas needs a directory") }
        return .schemas(directory: directory, check: check)
    }
}
