import SignupCore
import SignupProtocol

/// The form kinds clients can open.
struct FormCatalog {
    let definitions: [FormDefinition]

    static let builtIn = FormCatalog(definitions: [.signup, .githubSignup, .login, .friend, .secureSignup])

    var kinds: [String] { definitions.map(\.kind) }

    func definition(_ kind: String) -> FormDefinition? {
        definitions.first { $0.kind == kind }
    }
}
