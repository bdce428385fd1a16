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
        "value.tooCostly": "检查耗时过长；再次发送该值即可重试",
        "rule.unavailable": "此规则无法在这里检查：{reason}",
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
        // What frontends draw: titles, labels, placeholders, the submit button and its states.
        "signup.title": "注册",
        "signup-github.title": "创建账户",
        "login.title": "登录",
        "friend.title": "朋友",
        "username.label": "用户名",
        "password.label": "密码",
        "repeatedPassword.label": "重复密码",
        "firstName.label": "名字",
        "lastName.label": "姓氏",
        "phone.label": "电话",
        "signup.username.placeholder": "字母或数字",
        "signup.password.placeholder": "至少 5 个字符",
        "signup-github.username.placeholder": "英文字母、数字和单个连字符",
        "signup-github.password.placeholder": "至少 15 个字符，或至少 8 个字符并包含数字和小写字母",
        "repeatedPassword.placeholder": "再次输入密码",
        "friend.phone.placeholder": "7 到 15 位数字，可以 + 开头",
        "registration.label": "注册",
        "registration.idle": "尚未注册",
        "registration.submitting": "正在注册…",
        "registration.succeeded": "注册成功",
        "registration.failed": "注册失败",
        "login.label": "登录",
        "login.idle": "未登录",
        "login.submitting": "正在登录…",
        "login.succeeded": "已登录",
        "login.failed": "登录失败",
        "friendSave.label": "保存",
        "friendSave.idle": "尚未保存",
        "friendSave.submitting": "正在保存…",
        "friendSave.succeeded": "已保存",
        "friendSave.failed": "保存失败",
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
