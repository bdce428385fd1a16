import SignupProtocol
import Synchronization

/// One connection as the trace knows it: its number under `--listen` (nil on stdio), and the
/// secret values of its forms, under a lock of their own (noted on the loop, read where its
/// messages out are written). A form's go when it closes, all when its session ends.
final class TracedConnection: Sendable {
    let number: Int?
    let secrets = Mutex(FormSecrets())

    init(number: Int?) {
        self.number = number
    }

    /// The secret values of one connection's forms: the latest of each secret field, by form and
    /// field; those a form held when last submitted, which its backend may echo in messages out
    /// about the form; and the values that fields asked about as names held when submitted,
    /// hidden as whole strings of any message out (an account's name, in an event or a
    /// snapshot). Not every keystroke's: the first letters of a value typed key by key would hide
    /// field names and codes.
    struct FormSecrets {
        /// By form, its secret fields' latest values (a form has few: a list, not a table).
        var latest: [String: [(field: String, value: String)]] = [:]
        var submitted: [String: WatchedSecrets] = [:]
        var asked: Set<String> = []

        /// The latest `value` of a secret field, kept until the form is submitted or closed; an
        /// empty one is forgotten.
        mutating func note(_ value: String, ofField field: String, inForm form: String) {
            Self.set(&latest[form, default: []], field, to: value.isEmpty ? nil : value)
        }

        private static func set(_ values: inout [(field: String, value: String)], _ field: String, to value: String?) {
            if let index = values.firstIndex(where: { $0.field == field }) {
                if let value { values[index].value = value } else { values.remove(at: index) }
            } else if let value {
                values.append((field, value))
            }
        }

        /// Whether a message out may carry a secret value this connection's forms were submitted with.
        var hasSubmitted: Bool { !submitted.isEmpty || !asked.isEmpty }

        mutating func close(_ form: String) {
            latest[form] = nil
            submitted[form] = nil
        }

        /// `form` was submitted with its latest values; `namesAskedAbout`, the fields whose values are asked about as names.
        mutating func submit(_ form: String, namesAskedAbout: Set<String>) {
            guard let values = latest[form], !values.isEmpty else { return }
            submitted[form] = WatchedSecrets(values.map(\.value))
            for (field, value) in values where namesAskedAbout.contains(field) { asked.insert(value) }
        }
    }
}
