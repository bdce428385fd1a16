extension FieldDefinition {
    /// The password typed again, as every built-in sign-up asks for it: equal to `password`
    /// (judged again when the password changes), normalised as the password is.
    static func repeatedPassword(normalization: Normalization = .none) -> FieldDefinition {
        FieldDefinition(
            name: "repeatedPassword",
            rules: [Rule(.equalsField("password"), failure: Message("repeatedPassword.different", "Password different"))],
            successMessage: Message("repeatedPassword.matches", "Password repeated"),
            isSecret: true,
            normalization: normalization,
            label: Message("repeatedPassword.label", "Repeat password"),
            placeholder: Message("repeatedPassword.placeholder", "The same password again"),
            input: .newPassword)
    }
}
