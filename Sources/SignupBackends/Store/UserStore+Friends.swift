import Foundation
import SignupCore

/// The friend list: ids are the table's integer keys, written as decimal text; a phone number
/// belongs to one friend at most.
extension UserStore {
    /// Adds a friend; `.conflict` when another friend has the phone number.
    public func addFriend(_ friend: Friend, at time: Date = Date()) throws(StoreError) -> FriendSaveOutcome {
        try locked { () throws(StoreError) -> FriendSaveOutcome in
            try saving { () throws(StoreError) -> FriendSaveOutcome in
                let rows = try connection.query(
                    "INSERT INTO friends (first_name, last_name, phone, updated_at) VALUES (?, ?, ?, ?) RETURNING id",
                    [.text(friend.firstName), .text(friend.lastName), .text(friend.phone), .integer(Self.milliseconds(time))])
                guard case .integer(let id)? = rows.first?.first else {
                    throw .sqlite(path: path, code: 0, message: "INSERT … RETURNING id returned nothing")
                }
                return .saved(id: String(id))
            }
        }
    }

    /// Replaces a friend's details; `.notFound` when no friend has the id, `.conflict` when
    /// another friend has the phone number.
    public func updateFriend(_ id: String, to friend: Friend, at time: Date = Date()) throws(StoreError) -> FriendSaveOutcome {
        guard let key = Int64(id) else { return .notFound }
        return try locked { () throws(StoreError) -> FriendSaveOutcome in
            try saving { () throws(StoreError) -> FriendSaveOutcome in
                let rows = try connection.query(
                    "UPDATE friends SET first_name = ?, last_name = ?, phone = ?, updated_at = ? WHERE id = ? RETURNING id",
                    [.text(friend.firstName), .text(friend.lastName), .text(friend.phone), .integer(Self.milliseconds(time)), .integer(key)])
                return rows.isEmpty ? .notFound : .saved(id: id)
            }
        }
    }

    /// Every friend, by id in the order added.
    public func friends() throws(StoreError) -> [(id: String, friend: Friend)] {
        try locked { () throws(StoreError) -> [(id: String, friend: Friend)] in
            try connection.query("SELECT id, first_name, last_name, phone FROM friends ORDER BY id").compactMap { row in
                guard row.count == 4, case .integer(let id) = row[0], case .text(let first) = row[1],
                      case .text(let last) = row[2], case .text(let phone) = row[3] else { return nil }
                return (String(id), Friend(firstName: first, lastName: last, phone: phone))
            }
        }
    }

    /// Runs a write, reading a clash on the unique phone number as a conflict.
    private func saving(_ write: () throws(StoreError) -> FriendSaveOutcome) throws(StoreError) -> FriendSaveOutcome {
        do throws(StoreError) {
            return try write()
        } catch {
            if SQLiteConnection.isUniqueViolation(error) { return .conflict }
            throw error
        }
    }

    private static func milliseconds(_ time: Date) -> Int64 {
        Int64(time.timeIntervalSince1970 * 1000)
    }
}
