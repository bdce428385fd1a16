import SignupCore

/// Usernames kept one per confusable skeleton (`ConfusableSkeleton`), which a store's unique index
/// holds to: once `paypal` is registered, `pаypal` (with a Cyrillic а) is taken, by this process
/// or another. A store made before skeletons were kept is given them when migrated: the earliest
/// account of each skeleton holds it, and the later look-alikes are kept and reported, not dropped.
public struct LookAlikeUsernames: Hashable, Sendable {
    /// Two registered names that look alike: `kept` holds the skeleton, `alike` was registered later.
    public struct Pair: Hashable, Sendable, CustomStringConvertible {
        public let kept: String
        public let alike: String
        public var description: String { "'\(kept)' and '\(alike)'" }
    }

    /// For each skeleton, the account that holds it.
    public private(set) var holders: [(skeleton: String, account: Int64)] = []
    public private(set) var pairs: [Pair] = []

    /// Sorts `accounts` (id and name, in the order registered) by skeleton.
    public init(accounts: [(id: Int64, username: String)]) {
        var held: [String: String] = [:]
        for account in accounts {
            let skeleton = ConfusableSkeleton.of(account.username)
            if let kept = held[skeleton] {
                pairs.append(Pair(kept: kept, alike: account.username))
            } else {
                held[skeleton] = account.username
                holders.append((skeleton, account.id))
            }
        }
    }

    public static func == (left: Self, right: Self) -> Bool { left.pairs == right.pairs }
    public func hash(into hasher: inout Hasher) { hasher.combine(pairs) }
}
