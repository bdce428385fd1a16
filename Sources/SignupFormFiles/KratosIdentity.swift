import SignupCore
import SignupProtocol
import SignupSchema

/// An Ory Kratos identity schema read as it is (protocol.md §17, "Kratos identity schemas"): its
/// `traits` are the fields (`traits/email`), and what its `ory.sh/kratos` annotations say becomes
/// what a sign-up needs. The first trait that `credentials.password.identifier` marks is the login
/// identifier: an e-mail address or a phone number must be `unique` (NFKC); any other name must be
/// available, its look-alikes taken with it (`usernameAvailability`, PRECIS-mapped). A `password` field is added
/// with the NIST SP 800-63B profile of `signup-secure`, and the submission registers the account.
enum KratosIdentity {
    static let annotation = "ory.sh/kratos"

    /// Whether `document` is a Kratos identity schema: a trait carries the annotation.
    static func describes(_ document: JSON) -> Bool {
        identifierPaths(in: document).isEmpty == false
    }

    /// The traits `credentials.password.identifier` marks, as field names (`traits/email`).
    static func identifierPaths(in document: JSON) -> [String] {
        guard let traits = document["properties"]?["traits"]?["properties"]?.members else { return [] }
        return traits.compactMap { member in
            member.value[annotation]?["credentials"]?["password"]?["identifier"] == .bool(true) ? "traits/" + JSONPointer.escape(member.key) : nil
        }
    }

    /// The fields read from the schema, adapted: the identifier's check and normalisation, and the
    /// password field. Throws when the identifier is secret or the schema already has a password.
    static func adapt(_ fields: [FieldDefinition], document: JSON, reader: FormFile.Reader) throws(FormFile.Problem) -> (fields: [FieldDefinition], submit: SubmitAction) {
        guard let identifier = identifierPaths(in: document).first, let index = fields.firstIndex(where: { $0.name == identifier }) else {
            throw reader.fail("$.properties.traits", "no trait is marked \(annotation) credentials.password.identifier")
        }
        guard !fields.contains(where: { $0.name == password }) else {
            throw reader.fail("$.properties.password", "is added for a Kratos schema, and so may not be declared")
        }
        var fields = fields
        var field = fields[index]
        guard !field.isSecret else { throw reader.fail("$.properties.traits", "the identifier may not be writeOnly") }
        field.isRequired = true
        if field.input == .email || field.input == .phone {
            field.normalization = .nfkc
            field.remoteChecks.insert(RemoteCheck(
                kind: .unique, validating: Message("email.checking", "Checking the address..."),
                passed: Message("email.free", "Address not yet registered"),
                rejected: Message("email.taken", "This address is already registered"),
                unavailable: Message("backend.unavailable", "Error contacting server")), at: 0)
        } else {
            field.normalization = .usernameCaseMapped
            if field.input == .text { field.input = .username }
            field.rules.append(Rule(.allowedCharacters(.precisIdentifier), failure: Message(
                "username.notIdentifier", "Use letters, digits and punctuation, without spaces")))
            field.remoteChecks.insert(RemoteCheck(
                kind: .usernameAvailability, validating: Message("username.checking", "Checking availability..."),
                passed: Message("username.available", "Username available"),
                rejected: Message("username.takenOrAlike", "Taken, or too like a name that is"),
                unavailable: Message("backend.unavailable", "Error contacting server")), at: 0)
        }
        fields[index] = field
        fields.append(passwordField(likeField: identifier))
        let submit = SubmitAction(kind: .registerAccount(usernameField: identifier, passwordField: password), messages: [
            .taken: Message("identifier.taken", "An account with this identifier already exists"),
            .refused: Message("signup.failed", "Sign-up failed"),
            .unavailable: Message("backend.unavailable", "Error contacting server"),
        ])
        return (fields, submit)
    }

    static let password = "password"

    /// `signup-secure`'s password, compared for likeness with the identifier.
    private static func passwordField(likeField identifier: String) -> FieldDefinition {
        let secure = FormDefinition.secureSignup.fields.first { $0.name == "password" }!
        var field = secure
        field.rules = secure.rules.compactMap { rule in
            guard case .notSimilarTo(let other) = rule.check else { return rule }
            // signup-secure compares with its username and its e-mail; here, with the identifier.
            guard other == "username" else { return nil }
            return Rule(.notSimilarTo(identifier), failure: Message("password.likeIdentifier", "Too similar to your identifier"),
                        requirement: Message("password.likeIdentifier.requirement", "Not like your identifier"))
        }
        return field
    }
}
