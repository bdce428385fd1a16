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
        "check.skipped": "未经此项检查即已接受：无法连接到服务",
        "value.tooCostly": "检查耗时过长；再次发送该值即可重试",
        "rule.unavailable": "暂时无法检查这一项，请稍后再试",
        "check.budgetExceeded": "检查次数过多；请 {retryAfter} 秒后再试",
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
        // signup-secure (issue 38): look-alike usernames, e-mail, and NIST SP 800-63B passwords.
        "username.tooLong.requirement": "最多 {max} 个字符",
        "username.notIdentifier": "只能使用字母、数字和标点，不能有空格",
        "username.notIdentifier.requirement": "字母、数字和标点，不含空格",
        "username.mixedScripts": "请不要混用外形相似的文字，例如拉丁字母和西里尔字母",
        "username.mixedScripts.requirement": "只用一种文字（拉丁字母可与中文、日文或韩文同用）",
        "username.takenOrAlike": "该用户名或与其相似的用户名已被占用",
        "email.invalid": "请输入电子邮件地址，例如 ann@example.com",
        "email.checking": "正在检查该地址…",
        "email.free": "该地址尚未注册",
        "email.taken": "该地址已被注册",
        "password.tooShort.requirement": "至少 {min} 个字符",
        "password.tooLong.requirement": "最多 {max} 个字符",
        "password.common": "这是最常用的 {count} 个密码之一",
        "password.common.requirement": "不是常用密码",
        "password.pattern": "重复或连续的字符（aaaa、1234、qwerty）很容易被猜到",
        "password.pattern.requirement": "不是重复或连续的字符",
        "password.likeUsername": "与您的用户名太相似",
        "password.likeUsername.requirement": "与用户名不相似",
        "password.likeEmail": "与您的电子邮件地址太相似",
        "password.likeEmail.requirement": "与电子邮件地址不相似",
        "password.dictionaryWord": "基于字典中的单词；请加入您自己的词",
        "password.dictionaryWord.requirement": "不基于字典单词",
        "password.checkingBreaches": "正在检查已知的数据泄露…",
        "password.breached": "该密码已在 {count} 次数据泄露中出现；请换一个",
        "signup-secure.title": "创建账户",
        // A Kratos identity schema's sign-up (protocol.md §17).
        "password.likeIdentifier": "与您的标识符太相似",
        "password.likeIdentifier.requirement": "与标识符不相似",
        "identifier.taken": "使用此标识符的账户已存在",
        // The codes of a JSON Schema form's rules, one per keyword (protocol.md §17).
        "string.minLength": "至少 {min} 个字符",
        "string.maxLength": "最多 {max} 个字符",
        "string.pattern": "格式不正确",
        "string.format.email": "请输入电子邮件地址，例如 ann@example.com",
        "string.format.hostname": "不是有效的主机名",
        "string.format.idn-hostname": "不是有效的国际化主机名",
        "string.format.ipv4": "不是有效的IPv4 地址",
        "string.format.ipv6": "不是有效的IPv6 地址",
        "string.format.date": "不是有效的日期",
        "string.format.time": "不是有效的时间",
        "string.format.date-time": "不是有效的日期时间",
        "string.format.duration": "不是有效的时长",
        "string.format.uuid": "不是有效的UUID",
        "string.format.uri": "不是有效的URI",
        "string.format.uri-reference": "不是有效的URI 引用",
        "string.format.iri": "不是有效的IRI",
        "string.format.iri-reference": "不是有效的IRI 引用",
        "string.format.uri-template": "不是有效的URI 模板",
        "string.format.json-pointer": "不是有效的JSON 指针",
        "string.format.relative-json-pointer": "不是有效的相对 JSON 指针",
        "string.format.regex": "不是有效的正则表达式",
        "enum": "请从列出的值中选择",
        "string.minLength.requirement": "至少 {min} 个字符",
        "string.maxLength.requirement": "最多 {max} 个字符",
        "string.pattern.requirement": "符合要求的格式",
        "const": "必须是给定的值",
        "boolean.type": "必须是 true 或 false",
        "integer.type": "请输入整数",
        "number.type": "请输入数字",
        "number.minimum": "不能小于 {min}",
        "number.exclusiveMinimum": "必须大于 {min}",
        "number.maximum": "不能大于 {max}",
        "number.exclusiveMaximum": "必须小于 {max}",
        "number.multipleOf": "必须是 {multipleOf} 的倍数",
        "email.label": "电子邮件",
        "signup-secure.username.placeholder": "字母和数字，只用一种文字",
        "signup-secure.password.placeholder": "至少 15 个字符；几个词组合起来就很好",
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
