/// Holds at most one disposable; replacing it disposes the previous one.
///
/// Once disposed, anything assigned afterwards is disposed at once.
public final class SerialDisposable: Disposable {
    private var current: (any Disposable)?
    public private(set) var isDisposed = false

    public init() {}

    /// The held disposable. Assigning disposes the one it replaces.
    public var disposable: (any Disposable)? {
        get { current }
        set {
            if isDisposed {
                newValue?.dispose()
                return
            }
            let previous = current
            current = newValue
            previous?.dispose()
        }
    }

    public func dispose() {
        guard !isDisposed else { return }
        isDisposed = true
        let previous = current
        current = nil
        previous?.dispose()
    }
}
