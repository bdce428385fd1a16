/// Work a form asks its runtime to do, as data. Each comes with the reactive policy it runs under:
///
/// - `check`, `cancelCheck` and `ask` are keyed by field and **latest only** (RxSwift's
///   `flatMapLatest`): a field's newer effect cancels its pending or running one, so an answer for
///   an older value is never applied. `check` waits until the value has been **quiet** for the
///   debounce interval (`debounce`) before it comes due.
/// - `submit` runs **one at a time** (`flatMapFirst`): the reducer asks for it only when none is
///   running, on the values as they were at the tap.
enum FormEffect: Equatable {
    /// `FormAction.checkDue` for this value once it has been quiet for the interval of the field's
    /// check at position `check`: the first check counts from now, each later one from the same
    /// moment (so it is due at once when its interval is no longer than those before it).
    case check(field: Int, check: Int = 0, value: String, version: Int)
    /// Drop the field's pending or running check: its value needs none now.
    case cancelCheck(field: Int, version: Int)
    /// Ask the field's check at position `check` now, about `value` and the values `others` of the
    /// fields it reads; the answer comes back as `FormAction.checkAnswered`.
    case ask(field: Int, check: Int = 0, value: String, others: [String] = [], version: Int)
    /// Run the submit action on these values (every field's, by position), the fields at
    /// `leftOut` (hidden by the form's conditions) left out of what is sent.
    case submit(values: [String], leftOut: [Int] = [])
}

/// The effects of one action, gathered before they run. Most actions have none or one, kept in
/// the value itself; more (a field on which several checked fields depend) go to an array.
struct FormEffects: ~Copyable {
    private var first: FormEffect?
    private var overflow: [FormEffect]?
    private(set) var count = 0

    init() {}

    mutating func append(_ effect: consuming FormEffect) {
        if count == 0 {
            first = effect
        } else {
            var effects = overflow.take() ?? []
            effects.append(effect)
            overflow = effects
        }
        count += 1
    }

    /// Moves the effect at `index` out; each is taken once, in order.
    mutating func take(_ index: Int) -> FormEffect {
        index == 0 ? first.take()! : overflow![index - 1]
    }
}
