import Foundation
import SignupCore

/// Registrations that keep the account's fields and claim its unique values, in one statement: the
/// database commits the account, its fields and its claims together or none of them, so of two
/// processes claiming one e-mail exactly one wins.
extension PostgresStore {
    /// Registers a name with a password hash, its fields and its claims. Each registration carries
    /// an id of its own: when a connection is lost after the commit and the statement is retried,
    /// the row found is recognised as this registration's, not a rival's.
    public func register(
        _ username: String, passwordHash: String, at createdAt: Date = Date(), fields: AccountFields
    ) throws(StoreError) -> StoreRegistration {
        let registration = UUID().uuidString
        let key = UserStore.key(username)
        let rows: [[String?]]
        do throws(StoreError) {
            rows = try run(
                """
                WITH account AS (
                    INSERT INTO users (username, username_key, password_hash, created_at, registration_id)
                    VALUES ($1, $2, $3, $4, $5) ON CONFLICT (username_key) DO NOTHING RETURNING id
                ), skeleton AS (
                    INSERT INTO username_skeletons (skeleton, account) SELECT $9, account.id FROM account
                ), claimed AS (
                    INSERT INTO field_claims (kind, field, folded, account)
                    SELECT $6, claim.key, claim.value, account.id FROM account, jsonb_each_text($7::jsonb) AS claim
                ), kept AS (
                    INSERT INTO account_fields (account, kind, field, value)
                    SELECT account.id, $6, kept.key, kept.value FROM account, jsonb_each_text($8::jsonb) AS kept
                )
                SELECT id FROM account
                """,
                [username, key, passwordHash, String(Self.milliseconds(createdAt)), registration, fields.kind,
                 Self.json(fields.claims), Self.json(fields.values), ConfusableSkeleton.of(username)])
        } catch {
            guard case .uniqueViolation = error else { throw error }
            // A look-alike name or a claim was taken: the statement committed nothing.
            if try !run("SELECT 1 FROM username_skeletons WHERE skeleton = $1", [ConfusableSkeleton.of(username)]).isEmpty {
                return .usernameTaken
            }
            for (field, folded) in fields.claims.sorted(by: { $0.key < $1.key })
            where try isClaimed(kind: fields.kind, field: field, folded: folded) {
                return .fieldTaken(field)
            }
            throw error
        }
        if !rows.isEmpty { return .registered }
        let mine = try run("SELECT registration_id FROM users WHERE username_key = $1", [key]).first?.first == registration
        return mine ? .registered : .usernameTaken
    }

    /// Whether an account of `kind` claimed `folded` in `field`.
    public func isClaimed(kind: String, field: String, folded: String) throws(StoreError) -> Bool {
        try !run("SELECT 1 FROM field_claims WHERE kind = $1 AND field = $2 AND folded = $3", [kind, field, folded]).isEmpty
    }

    /// The fields kept with the account of `username`, by name.
    public func fields(of username: String) throws(StoreError) -> [String: String] {
        let rows = try run(
            "SELECT f.field, f.value FROM account_fields f JOIN users u ON u.id = f.account WHERE u.username_key = $1",
            [UserStore.key(username)])
        var fields: [String: String] = [:]
        for row in rows { if row.count == 2, let field = row[0], let value = row[1] { fields[field] = value } }
        return fields
    }

    private static func json(_ object: [String: String]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(object)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
