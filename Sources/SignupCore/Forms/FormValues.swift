/// The value of every field at one moment, as a submission takes them, with the form's edit
/// version then.
struct FormValues {
    let values: [String]
    let version: Int
}
