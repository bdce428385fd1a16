/// A friend's details, as the friend form saves them.
public struct Friend: Hashable, Sendable {
    public var firstName: String
    public var lastName: String
    public var phone: String

    public init(firstName: String, lastName: String, phone: String) {
        self.firstName = firstName
        self.lastName = lastName
        self.phone = phone
    }

    /// The saved friend as clients see it, with the backend's id for it.
    public func json(id: String) -> JSONValue {
        .object(["id": .string(id), "firstName": .string(firstName), "lastName": .string(lastName), "phone": .string(phone)])
    }
}

/// How saving a friend ended, when the backend answered at all.
public enum FriendSaveOutcome: Hashable, Sendable {
    /// Saved; `id` names the record from now on.
    case saved(id: String)
    /// The friend being updated does not exist (any more).
    case notFound
    /// The backend does not let this client change the friend.
    case unauthorised
    /// Another friend already has this phone number.
    case conflict
}

/// Keeps the friend list that the add/edit-friend form writes.
public protocol FriendSaving: AnyObject {
    /// A cold stream: subscribing sends the new friend. It emits one outcome and completes, or
    /// fails with a `BackendError`, always on the core's scheduler.
    func add(_ friend: Friend) -> EventStream<FriendSaveOutcome>
    /// Like `add`, for the friend with the id given.
    func update(_ id: String, to friend: Friend) -> EventStream<FriendSaveOutcome>
}
