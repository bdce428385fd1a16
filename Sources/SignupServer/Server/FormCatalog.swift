import SignupCore

/// The form kinds clients can open.
package struct FormCatalog {
    package let definitions: [FormDefinition]

    package init(definitions: [FormDefinition]) {
        self.definitions = definitions
    }

    package static let builtIn = FormCatalog(definitions: [.signup, .githubSignup, .login, .friend, .secureSignup])

    package var kinds: [String] { definitions.map(\.kind) }

    package func definition(_ kind: String) -> FormDefinition? {
        definitions.first { $0.kind == kind }
    }
}
