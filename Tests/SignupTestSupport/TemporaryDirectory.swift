import Foundation

/// A fresh folder under the system's temporary directory, removed when the value goes away.
public final class TemporaryDirectory {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("signup-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    /// Writes `document` as `forms/FILE` and returns the `forms` folder, for `--forms`.
    public func forms(_ file: String, _ document: String) throws -> String {
        try FileManager.default.createDirectory(atPath: path("forms"), withIntermediateDirectories: true)
        try Data(document.utf8).write(to: URL(fileURLWithPath: path("forms/\(file)")))
        return path("forms")
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
