/// What a field holds, so a frontend picks the control and the keyboard for it (a password box, a
/// phone pad) and lets a password manager fill it in.
public enum InputKind: String, CaseIterable, Hashable, Sendable {
    /// Any text.
    case text
    /// A person's name, or part of one.
    case name
    /// An account name the person picks or already has.
    case username
    /// A password the person already has (a login).
    case password
    /// A password being chosen (a sign-up), so a password manager may offer one.
    case newPassword
    case email
    case phone
    case number

    /// Hidden as typed: both kinds of password.
    public var isSecret: Bool { self == .password || self == .newPassword }
}
