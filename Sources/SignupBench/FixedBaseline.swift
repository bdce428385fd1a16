import Foundation

/// The build every figure-1 run is held to, whatever changed since: small costs that each kept
/// within 1.1× of the build before them added up to 1.33× over three changes (issue 58). Moved
/// only when a change makes it faster, measured side by side.
enum FixedBaseline {
    /// The commit `Scripts/build-baseline` builds.
    static let commit = "08995b0"

    /// Where `Scripts/build-baseline` leaves its `signup-rpc`: beside this build's products,
    /// under `.build/baseline/<commit>`.
    static func defaultPath(besides binaries: URL) -> String {
        // binaries is .build/<triple>/release; the baseline lives in .build/baseline.
        binaries.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("baseline/\(commit)/signup-rpc").path
    }
}
