#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Converts validated JSON number tokens to values, the way jansson does (strtoll, strtod),
/// with an exact fast path for short decimals so the common sample needs no libc call.
enum NumberText {
    /// Powers of ten that are exact doubles.
    private static let exactPowersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    /// The Int64 value of an integer token, or nil when it does not fit.
    static func integer(_ bytes: UnsafeRawBufferPointer, start: Int, end: Int) -> Int64? {
        var index = start
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var magnitude: UInt64 = 0
        while index < end {
            let digit = UInt64(bytes[index] &- UInt8(ascii: "0"))
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(digit)
            if overflow1 || overflow2 { return nil }
            magnitude = sum
            index += 1
        }
        if negative {
            if magnitude == UInt64(Int64.max) + 1 { return .min }
            return magnitude <= UInt64(Int64.max) ? -Int64(magnitude) : nil
        }
        return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    }

    /// The double nearest to a real token (correctly rounded, as strtod).
    static func double(_ bytes: UnsafeRawBufferPointer, start: Int, end: Int) -> Double {
        if let fast = fastDouble(bytes, start: start, end: end) { return fast }
        // strtod needs a terminated string; tokens are short, copy to a stack buffer.
        let length = end - start
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: length + 1) { buffer in
            for offset in 0..<length { buffer[offset] = CChar(bitPattern: bytes[start + offset]) }
            buffer[length] = 0
            return strtod(buffer.baseAddress!, nil)
        }
    }

    /// Clinger's fast path: digits.digits with at most 15 significant digits and no exponent
    /// give mantissa / 10^k, exact operands and one correctly rounded division.
    private static func fastDouble(_ bytes: UnsafeRawBufferPointer, start: Int, end: Int) -> Double? {
        var index = start
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        var seenPoint = false
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                seenPoint = true
            } else if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                mantissa = mantissa &* 10 &+ UInt64(byte - UInt8(ascii: "0"))
                if mantissa != 0 { digits += 1 }
                if seenPoint { fractionDigits += 1 }
            } else {
                return nil  // exponent: take the general path
            }
            index += 1
        }
        guard digits <= 15, fractionDigits <= 22 else { return nil }
        return decimal(mantissa: mantissa, fractionDigits: fractionDigits, negative: negative)
    }

    /// `mantissa` / 10^`fractionDigits`, negated when `negative`: with `mantissa` below 10^15
    /// and at most 22 fraction digits both operands are exact, so the one division is
    /// correctly rounded. The conversion of ``double(_:start:end:)``'s fast path, shared with
    /// ``SampleFastPath``, which scans the digits itself.
    static func decimal(mantissa: UInt64, fractionDigits: Int, negative: Bool) -> Double {
        let value = Double(mantissa) / exactPowersOfTen[fractionDigits]
        return negative ? -value : value
    }
}
