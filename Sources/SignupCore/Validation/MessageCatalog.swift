import Foundation

/// Message texts for one locale, by result code. Codes and params never change with the locale;
/// only the words do. A code the catalog lacks keeps the definition's English text.
public struct MessageCatalog: Hashable, Sendable {
    /// The locale this catalog speaks, such as `en` or `zh-Hans`.
    public let locale: String
    private let templates: [String: String]

    public init(locale: String, templates: [String: String]) {
        self.locale = locale
        self.templates = templates
    }

    /// The definitions' own English texts.
    public static let english = MessageCatalog(locale: "en", templates: [:])

    /// Simplified Chinese, in the words of the mission's source articles where they have them.
    public static let simplifiedChinese = MessageCatalog(locale: "zh-Hans", templates: [
        "username.invalidCharacters": "用户名只能包含字母或数字",
        "username.checking": "正在检查用户名是否可用…",
        "username.available": "用户名可用",
        "username.taken": "用户名已被占用",
        "username.tooLong": "用户名最多 {max} 个字符",
        "username.invalidFormat": "用户名只能包含英文字母、数字和单个连字符，且不能以连字符开头或结尾",
        "username.reserved": "该用户名已被保留",
        "backend.unavailable": "连接服务器出错",
        "password.tooShort": "密码至少需要 {min} 个字符",
        "password.tooLong": "密码最多 {max} 个字符",
        "password.tooWeak": "密码至少需要 15 个字符，或至少 8 个字符并包含数字和小写字母",
        "password.acceptable": "验证通过",
        "repeatedPassword.matches": "验证通过",
        "repeatedPassword.different": "两次输入的密码不一致",
        "signup.failed": "注册失败，请重试",
        "login.wrongCredentials": "用户名或密码错误",
        "login.rateLimited": "尝试次数过多，请一分钟后再试",
        "firstName.blank": "名字不能只有空格",
        "firstName.tooLong": "名字最多 {max} 个字符",
        "lastName.blank": "姓氏不能只有空格",
        "lastName.tooLong": "姓氏最多 {max} 个字符",
        "phone.invalid": "电话号码须为 7 到 15 位数字，可以 + 开头",
        "friend.notFound": "该朋友已不存在",
        "friend.unauthorised": "您无权修改该朋友",
        "friend.conflict": "已有朋友使用这个电话号码",
    ])

    /// The locales served out of the box.
    public static let builtIn: [MessageCatalog] = [.english, .simplifiedChinese]

    /// The built-in catalog for a requested locale: an exact match (ignoring case), then the
    /// longest matching prefix (`zh-Hans-CN` → `zh-Hans`), then by language (`zh`, `zh-CN` →
    /// `zh-Hans`); nil when nothing fits.
    public static func matching(_ requested: String) -> MessageCatalog? {
        let wanted = requested.lowercased().replacingOccurrences(of: "_", with: "-")
        if let exact = builtIn.first(where: { $0.locale.lowercased() == wanted }) { return exact }
        if let prefix = builtIn.first(where: { wanted.hasPrefix($0.locale.lowercased() + "-") }) { return prefix }
        let language = wanted.split(separator: "-").first.map(String.init) ?? wanted
        return builtIn.first { $0.locale.lowercased().split(separator: "-").first.map(String.init) == language }
    }

    /// The text of `message` in this locale, with `definition`'s own translations first.
    public func render(_ message: Message, _ params: [String: JSONValue] = [:], translations: [String: String] = [:]) -> String {
        let template = translations[message.code] ?? templates[message.code] ?? message.template
        return Message(message.code, template).render(params)
    }
}
