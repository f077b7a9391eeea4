/// The fast path's numbers: converted as they are scanned, within the ranges that convert
/// exactly.
extension SampleFastPath {
    /// The end and value of an integer without sign at `start`: `0` or [1-9][0-9]*, at most
    /// 18 digits (so the value cannot overflow). The scan and the conversion are one pass,
    /// the first eight digits in one step when they are all digits.
    @inline(__always)
    static func integer(_ text: SampleText, from start: Int) -> (Int, UInt64)? {
        var index = start
        var value: UInt64 = 0
        if start + 8 <= text.count, case let word = text.word(at: start), SampleText.isEightDigits(word) {
            value = SampleText.eightDigitsValue(word)
            index += 8
        }
        // One bound for the loop: the end of the text or the 18th digit.
        let limit = min(text.count, start &+ 18)
        while index < limit {
            let digit = text[index] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            value = value &* 10 &+ UInt64(digit)
            index &+= 1
        }
        let count = index - start
        guard count >= 1, count == 1 || text[start] != UInt8(ascii: "0") else { return nil }
        return (index, value)
    }

    /// The end and value of a JSON number at `start`: `-`? (`0` | [1-9][0-9]*) (`.` [0-9]+)?,
    /// at most 15 digits in all, so it converts exactly and fits any range checked here; nil
    /// otherwise. Converted as it is scanned, as the general path converts it: an integer as
    /// an `Int64` (so `-0` is 0), a fraction by ``NumberText/decimal(mantissa:fractionDigits:negative:)``.
    @inline(__always)
    static func number(_ text: SampleText, from start: Int) -> (Int, Double)? {
        var index = start
        let negative = index < text.count && text[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard let (integerEnd, integerValue) = integer(text, from: index) else { return nil }
        let count = integerEnd - index
        index = integerEnd
        guard index < text.count && text[index] == UInt8(ascii: ".") else {
            guard count <= 15 else { return nil }
            let magnitude = Int64(integerValue)
            return (index, Double(negative ? -magnitude : magnitude))
        }
        index += 1
        let fractionStart = index
        var mantissa = integerValue
        // The end of the text or the 15th digit in all.
        let limit = min(text.count, index &+ max(0, 15 &- count))
        while index < limit {
            let digit = text[index] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            mantissa = mantissa &* 10 &+ UInt64(digit)
            index &+= 1
        }
        guard index > fractionStart, index >= text.count || text[index] &- UInt8(ascii: "0") >= 10 else { return nil }
        return (
            index, NumberText.decimal(mantissa: mantissa, fractionDigits: index - fractionStart, negative: negative)
        )
    }
}
