/// A resource released by `dispose()`: a subscription, a timer, an in-flight request.
///
/// Disposing twice is harmless; the second call does nothing.
public protocol Disposable: AnyObject {
    func dispose()
}

/// Runs an action the first time it is disposed.
public final class ActionDisposable: Disposable {
    private var action: (() -> Void)?

    public init(_ action: @escaping () -> Void) {
        self.action = action
    }

    public var isDisposed: Bool { action == nil }

    public func dispose() {
        guard let action else { return }
        self.action = nil
        action()
    }
}

/// A disposable that holds nothing, for streams that own no resources.
public final class NopDisposable: Disposable, Sendable {
    public static let shared = NopDisposable()
    private init() {}
    public func dispose() {}
}

/// Shorthands for making disposables.
public enum Disposables {
    public static func create(_ action: @escaping () -> Void) -> any Disposable {
        ActionDisposable(action)
    }

    public static func create(_ disposables: any Disposable...) -> any Disposable {
        CompositeDisposable(disposables)
    }

    public static var empty: any Disposable { NopDisposable.shared }
}
