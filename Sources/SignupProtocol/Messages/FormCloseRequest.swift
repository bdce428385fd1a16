/// `form.close`: closes a form, cancelling its pending checks; no event of it follows.
package struct FormCloseRequest: FormAddressedRequest {
    package static let method = "form.close"

    package var form: String?
    package var at: Int64?

    package init(form: String? = nil, at: Int64? = nil) {
        self.form = form
        self.at = at
    }

    package struct Response: ResponseType {
        package var form: String

        package init(form: String) {
            self.form = form
        }

        package func write(to result: inout JSONWriter) {
            result.object { $0.key("form"); $0.string(form) }
        }
    }
}
