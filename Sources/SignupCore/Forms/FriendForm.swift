extension FormDefinition {
    /// The add/edit-friend screen of the MVVM friends app: first name, last name and phone, submit
    /// enabled only when all are filled and valid. Opened on a saved friend it updates that friend
    /// (a PATCH); otherwise it adds one (a POST). Failures name their reason: not found,
    /// unauthorised, conflict (the phone number is another friend's) or unavailable.
    public static let friend: FormDefinition = {
        func name(_ field: String, _ label: String) -> FieldDefinition {
            FieldDefinition(
                name: field,
                rules: [
                    Rule(.pattern("(?s).*\\S.*"), failure: Message("\(field).blank", "\(label) cannot be only spaces")),
                    Rule(.maxLength(100), failure: Message("\(field).tooLong", "\(label) is too long (maximum is {max} characters)")),
                ],
                label: Message("\(field).label", label),
                input: .name)
        }
        let phone = FieldDefinition(
            name: "phone",
            rules: [
                Rule(.pattern("\\+?[0-9]{7,15}"), failure: Message(
                    "phone.invalid", "Phone number must be 7 to 15 digits, optionally starting with +")),
            ],
            label: Message("phone.label", "Phone"),
            placeholder: Message("friend.phone.placeholder", "7 to 15 digits, optionally starting with +"),
            input: .phone)
        let submit = SubmitAction(kind: .saveFriend(firstNameField: "firstName", lastNameField: "lastName", phoneField: "phone"))
        // A constant written above; failing to build it is a programming error.
        return try! FormDefinition(
            kind: "friend", title: Message("friend.title", "Friend"), fields: [name("firstName", "First name"), name("lastName", "Last name"), phone], submit: submit, compilingPatterns: false)
    }()
}
