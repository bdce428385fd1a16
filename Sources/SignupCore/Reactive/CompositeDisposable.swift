/// A set of disposables released together; members can also leave early by key.
public final class CompositeDisposable: Disposable {
    /// Identifies a member, so it can be removed without disposing the rest.
    public struct Key: Hashable, Sendable {
        fileprivate let value: Int
    }

    private var members: [Int: any Disposable] = [:]
    private var nextKey = 0
    public private(set) var isDisposed = false

    public init() {}

    public init(_ disposables: [any Disposable]) {
        for disposable in disposables { insert(disposable) }
    }

    public var count: Int { members.count }

    /// Adds a member; if this composite is already disposed, disposes it at once and returns nil.
    @discardableResult
    public func insert(_ disposable: any Disposable) -> Key? {
        if isDisposed {
            disposable.dispose()
            return nil
        }
        let key = nextKey
        nextKey += 1
        members[key] = disposable
        return Key(value: key)
    }

    /// Removes a member and disposes it.
    public func remove(_ key: Key) {
        members.removeValue(forKey: key.value)?.dispose()
    }

    /// Removes a member without disposing it, for a member that has already finished.
    public func forget(_ key: Key) {
        members.removeValue(forKey: key.value)
    }

    public func dispose() {
        guard !isDisposed else { return }
        isDisposed = true
        let all = members.sorted { $0.key < $1.key }.map(\.value)
        members.removeAll()
        for member in all { member.dispose() }
    }
}
