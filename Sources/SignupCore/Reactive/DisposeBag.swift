/// Collects subscriptions and disposes them all when the bag itself goes away.
public final class DisposeBag {
    private var disposables: [any Disposable] = []

    public init() {}

    public func insert(_ disposable: any Disposable) {
        disposables.append(disposable)
    }

    /// Disposes everything collected so far; the bag stays usable.
    public func empty() {
        let all = disposables
        disposables.removeAll()
        for disposable in all { disposable.dispose() }
    }

    deinit { empty() }
}

extension Disposable {
    /// Hands this disposable to a bag that releases it with the bag.
    public func disposed(by bag: DisposeBag) {
        bag.insert(self)
    }
}
