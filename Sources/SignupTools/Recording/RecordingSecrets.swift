import SignupCore
import SignupProtocol
import SignupServer

/// What a recording writes in place of secrets, and the secrets it has seen so far: each secret's
/// placeholder (`SecretPlaceholders`), and the secrets that messages out, questions and answers may
/// carry again (a backend's tokens, a secret field's value asked about as a name). Owned by the
/// encoder and used on its queue only; the placeholders depend on the order secrets come in.
struct RecordingSecrets {
    private var placeholders: SecretPlaceholders
    private let redaction: SecretRedaction
    private let logger: Logger?
    /// Placeholders made for edits lately, by field and value, to skip making a string of the
    /// value and looking it up in `placeholders` for the same keystrokes again.
    private var recentPlaceholders = [RecentPlaceholder?](repeating: nil, count: 256)
    /// Secrets that messages out may carry: tokens from a backend, and secrets a backend echoed.
    private var secretsInOutput = WatchedSecrets()
    /// Values typed into secret fields that a kind asks its backend about as names
    /// (`SecretField.isAskedAbout`), as their fields see them: a question carrying one as a name
    /// has it replaced. Every keystroke's value is one, so they are not searched for in text.
    private var typedAskedSecrets: Set<String> = []
    /// Those of them that a question has carried: searched for in every answer from then on.
    private var askedSecrets = WatchedSecrets()
    /// The secret values each question not yet answered sent, by its number: what its answer
    /// may echo.
    private var sentSecrets: [Int: [String]] = [:]
    /// Warned once when a placeholder could not keep its secret's validity.
    private var warnedApproximation = false
    /// Whether placeholders are searched for: when not (a recording far behind its session, or
    /// ending by a signal, on the real clock), each secret not met before gets the first stand-in
    /// of its shape, counted as an approximation.
    var searchesPlaceholders = true

    /// A real session's placeholders are keyed at random, so they tell nothing of their secrets; a
    /// virtual one's repeat byte for byte, like the rest of its output.
    init(clock: ClockMode, redaction: SecretRedaction, logger: Logger?) {
        placeholders = clock == .real ? SecretPlaceholders(key: UInt64.random(in: .min ... .max)) : SecretPlaceholders()
        self.redaction = redaction
        self.logger = logger
    }

    private struct RecentPlaceholder {
        /// Held, so that no other field can take its identity while the entry is kept.
        let field: SecretField
        let value: [UInt8]
        let placeholder: String

        /// The placeholder, when this entry is `value`'s of `field`; read in place, not copied out.
        func placeholder(for value: UnsafeRawBufferPointer, of field: SecretField) -> String? {
            self.field === field && self.value.withUnsafeBytes({ $0.hasSameBytes(as: value) }) ? placeholder : nil
        }
    }

    // MARK: Messages in

    /// An edit's secret value's placeholder, as its field's rules judge it, the other fields they
    /// compare it with holding `others`.
    mutating func placeholder(for value: UnsafeRawBufferPointer, of field: SecretField, comparedWith others: [String: String] = [:]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(UInt(bitPattern: ObjectIdentifier(field)))
        for byte in value { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let slot = Int(truncatingIfNeeded: hash >> 40) & (recentPlaceholders.count - 1)
        // A secret judged beside other fields' values is looked up afresh, to judge it beside them.
        if others.isEmpty, let recent = recentPlaceholders[slot]?.placeholder(for: value, of: field) { return recent }
        let made = placeholder(for: String(decoding: value, as: UTF8.self), of: field, comparedWith: others)
        recentPlaceholders[slot] = RecentPlaceholder(field: field, value: Array(value), placeholder: made)
        return made
    }

    /// A secret field's value's placeholder, the value taken as its rules see it (normalised), so
    /// values that normalise alike, as a full-width repeat of a password does, keep matching. A
    /// value typed where the backend is asked about names is hidden in the questions that carry it.
    private mutating func placeholder(for value: String, of field: SecretField, comparedWith others: [String: String] = [:],
                                      within search: MatchBudget? = nil) -> String {
        let secret = field.normalized(value)
        let made = placeholder(for: secret, judgedBy: field.rules, comparedWith: others, within: search)
        if field.isAskedAbout { typedAskedSecrets.insert(secret) }
        return made
    }

    /// A message in, redacted, its secret fields' values replaced by placeholders: searching for
    /// them all may spend what searching for one may (`SecretPlaceholders.searchSteps`).
    mutating func hiding(in message: JSON, _ secretFields: [SecretRedaction.Place: SecretField]) -> JSON {
        let search = MatchBudget(stepsPerMessage: SecretPlaceholders.searchSteps)
        return redaction.redacting(message) { text, place in
            secretFields[place].map { placeholder(for: text, of: $0, within: search) }
        }
    }

    // MARK: The backend
    //
    // A backend may echo what it was sent: a check's message quoting the code it refused, an
    // API's validation error quoting the rejected password. Each question's secret values are
    // kept until its answer, replaced wherever they stand in that answer's texts (as every secret
    // a question has carried as a name is, in every answer), and, once an answer has echoed one,
    // watched for in messages out from then on, since the server passes such texts on to the
    // client. A secret no question has carried is in no answer to echo, and so is not searched
    // for: the first letters of a password typed key by key would be found everywhere.

    /// A question with the values of secret fields it sends replaced: a password, a secret field's
    /// value a check or a submission carries (judged by the field's name), a name typed into a
    /// secret field asked about. Those are kept for its answer. Every other value is written in
    /// clear, as in its own edit, even when it equals some secret, so that a replay, whose
    /// questions carry each secret field's placeholder and every other value as typed, asks the
    /// same question.
    mutating func hiding(in question: BackendQuestion, number: Int) -> BackendQuestion {
        var sent: [String] = []
        func secret(_ value: String) -> String {
            guard !value.isEmpty else { return value }
            sent.append(value)
            if typedAskedSecrets.contains(value) { askedSecrets.insert(Array(value.utf8)) }
            return placeholder(for: value)
        }
        func askedName(_ name: String) -> String {
            typedAskedSecrets.contains(name) ? secret(name) : name
        }
        let hiddenQuestion: BackendQuestion = switch question {
        case .availability(let username): .availability(username: askedName(username))
        case .registration(let username, let password): .registration(username: askedName(username), password: secret(password))
        case .login(let username, let password): .login(username: askedName(username), password: secret(password))
        case .check(let name, let inputs):
            .check(name: name, inputs: Dictionary(uniqueKeysWithValues: inputs.map { input, value in
                (input, redaction.isSecret(input: input, ofCheck: name) ? secret(value) : value)
            }))
        case .submission(let kind, let fields):
            .submission(kind: kind, fields: Dictionary(uniqueKeysWithValues: fields.map { field, value in
                (field, redaction.isSecretField(named: field) ? secret(value) : value)
            }))
        case .addFriend, .updateFriend: question
        }
        if !sent.isEmpty { sentSecrets[number] = sent }
        return hiddenQuestion
    }

    /// An answer with the tokens it gives out, and the secrets asked about or sent by its question
    /// that its texts carry, replaced.
    mutating func hiding(in answer: BackendAnswer, number: Int) -> BackendAnswer {
        let withTokens: BackendAnswer = switch answer {
        case .registration(.registered(let account)): .registration(.registered(account: hidingSecretMembers(of: account)))
        case .login(.loggedIn(let token)): .login(.loggedIn(token: backendSecret(token)))
        case .submission(.accepted(let result)): .submission(.accepted(hidingSecretMembers(of: result)))
        case .submission(.refused(let status, let body)): .submission(.refused(status: status, body: body.map { hidingSecretMembers(of: $0) }))
        default: answer
        }
        let sentValues = sentSecrets.removeValue(forKey: number) ?? []
        guard !sentValues.isEmpty || !askedSecrets.isEmpty else { return withTokens }
        // Made at the first text: most answers (an availability, a pass) carry none.
        var sent: WatchedSecrets?
        var echoed: [String] = []
        func echo(_ secret: String) -> String {
            echoed.append(secret)
            return placeholderOrMask(secret)
        }
        let hidden = withTokens.mappingTexts { text in
            if sent == nil { sent = WatchedSecrets(sentValues) }
            let text = askedSecrets.replacingOccurrences(in: text, with: echo) ?? text
            return sent?.replacingOccurrences(in: text, with: echo) ?? text
        }
        for secret in echoed { secretsInOutput.insert(Array(secret.utf8)) }
        return hidden ?? withTokens
    }

    /// The question was withdrawn: no answer will echo it.
    mutating func questionCancelled(_ number: Int) {
        sentSecrets[number] = nil
    }

    /// A token or other secret a backend gave out: its placeholder, and output carrying it is rewritten.
    private mutating func backendSecret(_ secret: String) -> String {
        if placeholders.existing(for: secret) == nil { secretsInOutput.insert(Array(secret.utf8)) }
        return placeholder(for: secret)
    }

    /// An account a backend returned, with the members that name a secret hidden.
    private mutating func hidingSecretMembers(of account: JSONValue) -> JSONValue {
        switch account {
        case .object(let members):
            var hidden: [String: JSONValue] = [:]
            for (key, value) in members {
                if case .string(let secret) = value, SecretRedaction.namesSecretMember(key) {
                    hidden[key] = .string(backendSecret(secret))
                } else {
                    hidden[key] = hidingSecretMembers(of: value)
                }
            }
            return .object(hidden)
        case .array(let elements): return .array(elements.map { hidingSecretMembers(of: $0) })
        default: return account
        }
    }

    /// A watched secret's placeholder; every one has been given one, but were it not, the mask.
    private func placeholderOrMask(_ secret: String) -> String {
        placeholders.existing(for: secret) ?? SecretRedaction.mask
    }

    /// A secret's placeholder, warning once when one cannot pass and fail exactly its rules.
    private mutating func placeholder(for secret: String, judgedBy rules: SecretPlaceholders.Rules = .none,
                                      comparedWith others: [String: String] = [:], within search: MatchBudget? = nil) -> String {
        let search = searchesPlaceholders ? search : MatchBudget(stepsPerMessage: 0)
        let made = placeholders.placeholder(for: secret, judgedBy: rules, comparedWith: others, within: search)
        if placeholders.approximations > 0, !warnedApproximation {
            warnedApproximation = true
            logger?.warning("recording: a secret's placeholder could not pass and fail exactly its rules; its replay may differ")
        }
        return made
    }

    // MARK: Messages out

    /// Whether a message out may carry a secret seen so far: when not, it is written as it is.
    var mayBeInOutput: Bool { !secretsInOutput.isEmpty }

    /// A message the server sent, with every secret seen so far that it carries replaced, as a
    /// whole string or within one; nil when it carries none (or is not JSON), to be written as it is.
    func hiding(inOut line: UnsafeBufferPointer<UInt8>) -> JSON? {
        guard secretsInOutput.occurs(in: line), let parsed = try? JSONParser.parse(line, maxDepth: 10_000) else { return nil }
        return parsed.mappingStrings { text in
            placeholders.existing(for: text) ?? secretsInOutput.replacingOccurrences(in: text, with: placeholderOrMask) ?? text
        }
    }
}
