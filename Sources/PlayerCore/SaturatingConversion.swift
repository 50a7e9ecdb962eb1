/// Whole numbers from a `Double` that never trap. `Int(x)` stops the process when `x` is NaN,
/// infinite or out of range, and times reach here from outside: a length stored in the library, a
/// setting another computer's sync journal carried, a number typed as `sleep 99999999999999999999`.
/// A value past the range is the range's end, NaN is 0; shown as a time, either is absurd but
/// harmless, where a trap lost the listener's session.
extension Int {
    public init(saturating value: Double) {
        self = value.isNaN ? 0 : value >= 0x1p63 ? .max : value < -0x1p63 ? .min : Int(value)
    }
}

extension Int64 {
    public init(saturating value: Double) {
        self = Int64(Int(saturating: value))
    }
}
