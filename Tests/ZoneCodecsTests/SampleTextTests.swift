import Foundation
import Testing
import ZoneSimulation

@testable import ZoneCodecs

/// The word tricks of the sample fast path agree with the plain byte-by-byte answer on words
/// built from the bytes that matter (digits, quotes, backslashes, control bytes, 0x7E-0x80,
/// 0xFF) and on random words.
@Suite struct SampleTextTests {
    static func randomWords(count: Int) -> [UInt64] {
        var random = SplitMix64(seed: 7)
        let interesting: [UInt8] = [
            0x00, 0x1F, 0x20, 0x21, 0x22, 0x2F, 0x30, 0x35, 0x39, 0x3A, 0x40, 0x5B, 0x5C, 0x5D,
            0x7E, 0x7F, 0x80, 0xC3, 0xFF, UInt8(ascii: "a"),
        ]
        return (0..<count).map { index in
            if index % 2 == 0 { return random.next() }
            var word: UInt64 = 0
            for byte in 0..<8 {
                word |= UInt64(interesting[Int(random.next() % UInt64(interesting.count))]) << (byte * 8)
            }
            return word
        }
    }

    static func bytes(of word: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: word >> ($0 * 8)) } }

    @Test func nonPlainBytesAreFoundInEveryWord() {
        for word in Self.randomWords(count: 200_000) {
            let plain = Self.bytes(of: word).allSatisfy { $0 >= 0x20 && $0 <= 0x7E && $0 != 0x22 && $0 != 0x5C }
            #expect(SampleText.hasNonPlainByte(word) == !plain, "\(String(word, radix: 16))")
        }
    }

    @Test func eightDigitsAreRecognisedAndConverted() {
        var words = Self.randomWords(count: 100_000)
        var random = SplitMix64(seed: 9)
        for _ in 0..<100_000 {
            let digits = String(format: "%08llu", random.next() % 100_000_000)
            words.append(
                Array(digits.utf8).enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << ($1.offset * 8) })
        }
        for word in words {
            let bytes = Self.bytes(of: word)
            let isDigits = bytes.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
            #expect(SampleText.isEightDigits(word) == isDigits)
            if isDigits {
                #expect(SampleText.eightDigitsValue(word) == bytes.reduce(UInt64(0)) { $0 * 10 + UInt64($1 - 0x30) })
            }
        }
    }

    @Test func literalsMatchWhereverTheyLie() throws {
        let text = Array(#"{"type":"sample","quantity":"cycling_power"}"#.utf8)
        try text.withUnsafeBytes { buffer in
            let sample = try #require(SampleText(buffer))
            #expect(sample.matches("{\"type\":", at: 0))
            #expect(sample.matches("\"sample\"", at: 8))
            #expect(!sample.matches("\"samplf\"", at: 8))
            #expect(sample.matches("\"cycling_power\"", at: 28))
            #expect(!sample.matches("\"cycling_powes\"", at: 28))
            // Within 8 bytes of the end, and past it.
            #expect(sample.matches("power\"}", at: 37))
            #expect(!sample.matches("power\"}x", at: 37))
            #expect(!sample.matches("\"", at: -1))
        }
    }
}
