/// A set of disposables released together; members can also leave early by key.
public final class CompositeDisposable: Disposable {
    /// Identifies a member, so it can be removed without disposing the rest.
    public struct Key: Hashable, Sendable {
        fileprivate let value: Int
    }

    /// In insertion order, so keys ascend. An array, not a dictionary: composites are small and
    /// numerous (several per open form), and a dictionary's storage is most of their memory.
    private var members: [(key: Int, disposable: any Disposable)] = []
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
        members.append((key, disposable))
        return Key(value: key)
    }

    /// Removes a member and disposes it.
    public func remove(_ key: Key) {
        take(key)?.dispose()
    }

    /// Removes a member without disposing it, for a member that has already finished.
    public func forget(_ key: Key) {
        take(key)
    }

    @discardableResult
    private func take(_ key: Key) -> (any Disposable)? {
        guard let index = members.lastIndex(where: { $0.key == key.value }) else { return nil }
        return members.remove(at: index).disposable
    }

    public func dispose() {
        guard !isDisposed else { return }
        isDisposed = true
        let all = members.map(\.disposable)
        members.removeAll()
        for member in all { member.dispose() }
    }
}
