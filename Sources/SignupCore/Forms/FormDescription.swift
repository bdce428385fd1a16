/// Everything a generic frontend needs to draw a form kind it has never seen, in one locale: the
/// fields in order with their labels and input kinds, the submit button, and what each submission
/// state and failure says. Built from a `LocalizedForm`, so it speaks the form's locale.
public struct FormDescription: Hashable, Sendable {
    public struct Field: Hashable, Sendable {
        public var name: String
        public var label: String
        public var placeholder: String?
        public var input: InputKind
        public var isRequired: Bool
        public var isSecret: Bool
        /// The longest accepted value in characters as people see them; nil when unbounded.
        public var maxLength: Int?
        /// The field's remote checks, in the order they are asked.
        public var remoteChecks: [Check]
        /// What a checklist field asks for, one item per rule in order; empty for other fields.
        public var requirements: [Requirement]
        /// A longer explanation to show under the field; nil for none.
        public var help: String? = nil
        /// The value the form opens with when none is given; nil for empty.
        public var initialValue: String? = nil
        /// Whether the form's conditions show, hide or require it (`form.fieldPresenceChanged`).
        public var isConditional = false
        /// The only values it takes, to offer; nil for any text.
        public var choices: [String]? = nil
    }

    /// One item of a field's checklist: met unless its code is in the field's `params.unmet`
    /// (all are unmet while the field is empty; none once its rules pass).
    public struct Requirement: Hashable, Sendable {
        /// The code the rule fails with.
        public var code: String
        public var text: String
    }

    /// A remote check as a frontend may know it: its name and kind, never its URL or headers.
    public struct Check: Hashable, Sendable {
        public var name: String
        /// `usernameAvailability` or `http`.
        public var kind: String
    }

    /// A submission state as the form names it, what it means, and its text.
    public struct State: Hashable, Sendable {
        /// The name in `form.submissionChanged` (a login says `loggingIn` for `submitting`).
        public var name: String
        /// One of `idle`, `submitting`, `succeeded`, `failed`, whatever the form calls it.
        public var meaning: String
        public var text: String
    }

    /// A way a submission can fail: its code and message.
    public struct Outcome: Hashable, Sendable {
        public var code: String
        public var message: String
    }

    public var kind: String
    public var locale: String
    public var title: String
    public var fields: [Field]
    public var submitLabel: String
    /// The member of a success that carries its result: `account` or `friend`.
    public var resultName: String
    /// `idle`, `submitting`, `succeeded`, `failed`, in that order.
    public var states: [State]
    public var failures: [Outcome]
}

extension LocalizedForm {
    /// The form described in its locale.
    public var formDescription: FormDescription {
        let definition = self.definition
        let submit = definition.submit
        func text(_ message: Message) -> String { localizer.text(message) }
        let names = submit.stateNames, texts = submit.texts
        let phases: [(meaning: String, name: String, text: Message)] = [
            ("idle", names.idle, texts.idle), ("submitting", names.submitting, texts.submitting),
            ("succeeded", names.succeeded, texts.succeeded), ("failed", names.failed, texts.failed),
        ]
        return FormDescription(
            kind: definition.kind,
            locale: catalog.locale,
            title: text(definition.title),
            fields: definition.fields.map { field in
                FormDescription.Field(
                    name: field.name, label: text(field.label), placeholder: field.placeholder.map(text), input: field.input,
                    isRequired: field.isRequired, isSecret: field.isSecret, maxLength: field.maxLength,
                    remoteChecks: field.remoteChecks.map { FormDescription.Check(name: $0.name, kind: $0.kind.name) },
                    requirements: field.rules.compactMap { rule in
                        rule.requirement.map { FormDescription.Requirement(code: rule.failure.code, text: localizer.render($0, rule.failureParams)) }
                    },
                    help: field.help.map(text), initialValue: field.initialValue,
                    isConditional: definition.conditions.map { conditions in
                        conditions.conditionalFields.contains { definition.fields[$0].name == field.name }
                    } ?? false,
                    choices: field.choices)
            },
            submitLabel: text(submit.texts.label),
            resultName: submit.resultName,
            states: phases.map { FormDescription.State(name: $0.name, meaning: $0.meaning, text: text($0.text)) },
            failures: submit.possibleFailures.map { failure in
                let message = submit.message(for: failure)
                return FormDescription.Outcome(code: message.code, message: text(message))
            })
    }
}
