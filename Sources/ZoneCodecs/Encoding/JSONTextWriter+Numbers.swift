/// Numbers as the contract's outputs write them: integers as they are, fixed decimals from
/// tenths and hundredths, reals as the shortest text that reads back as the same double.
extension JSONTextWriter {
    mutating func appendInteger(_ value: Int64) {
        if value < 0 {
            append(byte: UInt8(ascii: "-"))
            appendDigits(value.magnitude)
        } else {
            appendDigits(UInt64(value))
        }
    }

    /// A count of tenths as a number with one decimal (`105` -> `10.5`, `600` -> `60.0`).
    mutating func appendTenths(_ tenths: Int64) {
        if tenths < 0 { append(byte: UInt8(ascii: "-")) }
        appendDigits(tenths.magnitude / 10)
        append(byte: UInt8(ascii: "."))
        appendDigits(tenths.magnitude % 10)
    }

    /// A count of hundredths with as few decimals as say it, but at least one
    /// (`400` -> `4.0`, `92` -> `0.92`, `90` -> `0.9`).
    mutating func appendHundredths(_ hundredths: Int64) {
        if hundredths < 0 { append(byte: UInt8(ascii: "-")) }
        let magnitude = hundredths.magnitude
        appendDigits(magnitude / 100)
        append(byte: UInt8(ascii: "."))
        let fraction = magnitude % 100
        if fraction % 10 == 0 {
            appendDigits(fraction / 10)
        } else {
            if fraction < 10 { append(byte: UInt8(ascii: "0")) }
            appendDigits(fraction)
        }
    }

    /// A whole number below 2^53 as an integer, anything else as ``appendReal(_:)``.
    mutating func appendNumber(_ value: Double) {
        if abs(value) < 9_007_199_254_740_992, Double(Int64(value)) == value {
            appendInteger(Int64(value))
        } else {
            appendReal(value)
        }
    }

    /// Always a real: the shortest text that reads back as the same double, with `.0` when
    /// it would otherwise look like an integer (`126.0`), and the exponent as jansson writes
    /// it (`1e-5`, `3e20`). Values are finite: the contract refuses every other input.
    mutating func appendReal(_ value: Double) {
        guard value.isFinite else {
            append("null")
            return
        }
        let text = value.description  // Swift's shortest round-trip digits; short texts do not allocate
        var seenExponent = false
        var exponentDigits = 0
        var hasPointOrExponent = false
        for byte in text.utf8 {
            if seenExponent {
                if byte == UInt8(ascii: "+") { continue }
                if byte == UInt8(ascii: "-") {
                    append(byte: byte)
                    continue
                }
                if byte == UInt8(ascii: "0") && exponentDigits == 0 { continue }
                exponentDigits += 1
            }
            if byte == UInt8(ascii: "e") {
                seenExponent = true
                hasPointOrExponent = true
            }
            if byte == UInt8(ascii: ".") { hasPointOrExponent = true }
            append(byte: byte)
        }
        if seenExponent && exponentDigits == 0 { append(byte: UInt8(ascii: "0")) }
        if !hasPointOrExponent { append(".0") }
    }
}
