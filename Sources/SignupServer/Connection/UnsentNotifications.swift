import SignupProtocol

/// Notifications sent during the loop's current work, handed to the writer's queue together at
/// its end: one lock for them all rather than one each. Each is added in one call, so it costs
/// one access to the writer's state.
struct UnsentNotifications {
    private var notifications: [FormNotification] = []

    var isEmpty: Bool { notifications.isEmpty }

    /// A batch that grows this long is handed over at once.
    static let largest = 1024

    package enum Added {
        /// The first of a batch: its hand-over is to be arranged.
        case first
        /// One more.
        case more
        /// The batch is full: to be handed over now.
        case full
    }

    mutating func add(_ notification: consuming FormNotification) -> Added {
        let isFirst = notifications.isEmpty
        // Room for a read's worth of keystrokes at once, so the batch is not regrown as it fills.
        if isFirst { notifications.reserveCapacity(Self.largest / 2) }
        notifications.append(notification)
        return notifications.count >= Self.largest ? .full : isFirst ? .first : .more
    }

    /// The batch, taking its storage as it is (the next batch starts a new one); nil when empty.
    mutating func take() -> [FormNotification]? {
        guard !notifications.isEmpty else { return nil }
        defer { notifications = [] }
        return notifications
    }
}
