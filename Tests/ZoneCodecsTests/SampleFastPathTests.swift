import Foundation
import Testing
import ZoneEngine
import ZoneSimulation
import ZoneSupport

@testable import ZoneCodecs

/// The sample fast path decides nothing the general path would decide otherwise: whenever it
/// returns an event, the general path (the strict parser and the validator) returns the same
/// event, and jansson agrees; and it is taken for the plain forms real traffic has.
@Suite struct SampleFastPathTests {
    static let plainSamples: [String] = [
        #"{"type":"sample","session":"s0000123","ts":1717200000000,"quantity":"heart_rate","value":142.5}"#,
        #"{"type":"sample","quantity":"cycling_power","value":215,"session":"gym-7-member-12","ts":1717200000000}"#,
        #"{"type":"sample","session":"s","ts":0,"quantity":"cycling_power","value":0.25,"unit":"kW","person":"p-1"}"#,
        #"{"ts":5,"value":2.5,"unit":"count/s","quantity":"heart_rate","person":"lena","session":"a b~!","type":"sample"}"#,
        #"{"type":"sample","session":"s","ts":5,"quantity":"heart_rate","value":60.0,"unit":"bpm"}"#,
        #"{"type":"sample","session":"s","ts":9007199254740,"quantity":"heart_rate","value":123.456789012345}"#,
    ]

    /// Decodes with the fast path and with the general path alone.
    static func both(_ text: [UInt8], key: [UInt8]?) -> (fast: WorkoutEvent?, general: Result<WorkoutEvent, Rejection>)
    {
        var decoder = WorkoutEventDecoder()
        var ids = SessionIdCache()
        return text.withUnsafeBytes { value in
            func run(_ key: UnsafeRawBufferPointer?) -> (WorkoutEvent?, Result<WorkoutEvent, Rejection>) {
                (SampleFastPath.decode(value, key: key, ids: &ids), decoder.decodeGeneral(value: value, key: key))
            }
            guard let key else { return run(nil) }
            return key.withUnsafeBytes { run($0) }
        }
    }

    static func sessionKey(_ text: String) -> [UInt8]? {
        guard let range = text.range(of: #""session":""#), let end = text[range.upperBound...].firstIndex(of: "\"")
        else { return nil }
        return Array(text[range.upperBound..<end].utf8)
    }

    @Test(arguments: plainSamples)
    func plainSamplesTakeTheFastPathWithTheGeneralPathsResult(text: String) throws {
        for key in [Self.sessionKey(text), nil] {
            let (fast, general) = Self.both(Array(text.utf8), key: key)
            let event = try #require(fast, "not taken: \(text)")
            #expect(general == .success(event))
        }
        #expect(DecoderAgreement.check(Array(text.utf8), key: Self.sessionKey(text)) == .agreed)
    }

    /// Every sample the load generator writes is in the plain form.
    @Test func theLoadGeneratorsSamplesTakeTheFastPath() throws {
        var plan = TrafficPlan()
        plan.members = 40
        plan.sessionSeconds = 30
        var generator = LoadGenerator(plan: plan)
        var samples = 0
        let records = (0..<30).flatMap { _ in generator.nextSecond(topic: "workout-events") }
        for record in records where record.value.hasPrefix(#"{"type":"sample","#) {
            samples += 1
            let (fast, general) = Self.both(Array(record.value.utf8), key: Array(record.key.utf8))
            let event = try #require(fast, "not taken: \(record.value)")
            #expect(general == .success(event))
        }
        #expect(samples > 1000)
    }

    /// One-byte changes of the plain samples (each byte deleted, replaced or preceded by a byte
    /// that matters to JSON or to the fast path's subset): when the fast path takes one, the
    /// general path and jansson give the same event; when it does not, it took none.
    @Test(arguments: plainSamples)
    func oneByteChangesNeverMakeTheFastPathDiffer(text: String) {
        let bytes = Array(text.utf8)
        let key = Self.sessionKey(text)
        let interesting = Array(" \t\"\\,:{}[]-+.0159eE".utf8) + [0x00, 0x1F, 0x7F, 0x80, 0xC3]
        var variants: [[UInt8]] = []
        for index in bytes.indices {
            var deleted = bytes
            deleted.remove(at: index)
            variants.append(deleted)
            for byte in interesting {
                var replaced = bytes
                replaced[index] = byte
                variants.append(replaced)
                var inserted = bytes
                inserted.insert(byte, at: index)
                variants.append(inserted)
            }
        }
        var taken = 0
        for variant in variants {
            let (fast, general) = Self.both(variant, key: key)
            guard let fast else { continue }
            taken += 1
            #expect(general == .success(fast), "\(String(decoding: variant, as: UTF8.self))")
            #expect(DecoderAgreement.check(variant, key: key) == .agreed, "\(String(decoding: variant, as: UTF8.self))")
        }
        // Digits changed within numbers and bytes within strings stay plain.
        #expect(taken > 20)
    }

    /// What the fast path leaves to the general path, which then says why (or accepts it).
    @Test(arguments: [
        #"{"type": "sample","session":"s","ts":5,"quantity":"heart_rate","value":100}"#,
        #"{"type":"sample","session":"s","session":"t","ts":5,"quantity":"heart_rate","value":100}"#,
        #"{"type":"sample","session":"s\u0041","ts":5,"quantity":"heart_rate","value":100}"#,
        #"{"type":"sample","session":"é","ts":5,"quantity":"heart_rate","value":100}"#,
        #"{"type":"sample","session":"s","ts":5,"quantity":"heart_rate","value":1e2}"#,
        #"{"type":"sample","session":"s","ts":5,"quantity":"heart_rate","value":1234567890123456}"#,
        #"{"type":"sample","session":"s","ts":-0,"quantity":"heart_rate","value":100}"#,
        #"{"type":"sample","session":"s","ts":5,"quantity":"heart_rate","value":100,"device":"x"}"#,
        #"{"type":"sample","session":"s","ts":5,"quantity":"heart_rate","value":100,"person":null}"#,
        #"{"type":"sample","session":"","ts":5,"quantity":"heart_rate","value":100}"#,
        #"{"type":"sample","session":"s","ts":5,"quantity":"heart_rate","value":100,"unit":"W"}"#,
        #"{"type":"sample","session":"s","ts":5,"quantity":"speed","value":100}"#,
        #"{"type":"sample","session":"s","ts":5,"quantity":"heart_rate","value":900}"#,
        #"{"type":"sample","session":"s","ts":5,"quantity":"heart_rate"}"#,
        #"{"type":"pause","session":"s","ts":5}"#,
        #"{"type":"samples","session":"s","ts":5,"quantity":"heart_rate","value":100}"#,
        #"{"type":"sample","session":"s","ts":5,"tsx":1,"quantity":"heart_rate","value":100}"#,
        #"{"type":"sample","session":"s","ts":5,"quantity":"heart_rates","value":100}"#,
        #"{"type":"sample","session":"s","ts":5,"quantity":"heart_rat","value":100}"#,
        #"{"type":"sample","session":"s","ts":1234567890123456,"quantity":"heart_rate","value":100}"#,
        #"{"type":"sample","session":"s","ts":05,"quantity":"heart_rate","value":100}"#,
        #"{"type":"sample","session":"s","ts":5,"quantity":"heart_rate","value":100.}"#,
        #"{"type":"sample","session":"s","ts":5,"quantity":"heart_rate","value":-01}"#,
        #"{"type":"sample","session":"s","ts":5,"quantity":"heart_rate","value":100,"value":101}"#,
        #"{"type":"sample","session":"s","ts":5,"quantity":"heart_rate","value":100} "#,
    ])
    func recordsOutsideThePlainFormAreLeftToTheGeneralPath(text: String) {
        let (fast, _) = Self.both(Array(text.utf8), key: Array("s".utf8))
        #expect(fast == nil)
        #expect(DecoderAgreement.check(Array(text.utf8), key: Array("s".utf8)) == .agreed)
    }

    /// Edges of the number forms: whichever path decides, they agree.
    @Test(arguments: [
        #"{"type":"sample","session":"s","ts":0,"quantity":"cycling_power","value":-0}"#,
        #"{"type":"sample","session":"s","ts":0,"quantity":"cycling_power","value":0}"#,
        #"{"type":"sample","session":"s","ts":0,"quantity":"cycling_power","value":-0.0}"#,
        #"{"type":"sample","session":"s","ts":999999999999999,"quantity":"heart_rate","value":100.000000000001}"#,
        #"{"type":"sample","session":"s","ts":5,"quantity":"heart_rate","value":60,"unit":"count/min"}"#,
        // Converted as scanned: eight digits at once before the point, the 15-digit limit
        // reached within the fraction, negative fractions, an integer of 15 digits.
        #"{"type":"sample","session":"s","ts":0,"quantity":"cycling_power","value":12345678.9}"#,
        #"{"type":"sample","session":"s","ts":0,"quantity":"cycling_power","value":1234.56789012345}"#,
        #"{"type":"sample","session":"s","ts":0,"quantity":"cycling_power","value":1234.567890123456}"#,
        #"{"type":"sample","session":"s","ts":0,"quantity":"cycling_power","value":0.000000000000001}"#,
        #"{"type":"sample","session":"s","ts":0,"quantity":"cycling_power","value":-0.5}"#,
        #"{"type":"sample","session":"s","ts":0,"quantity":"cycling_power","value":123456789012345}"#,
        #"{"type":"sample","session":"s","ts":0,"quantity":"heart_rate","value":99.99999999999999}"#,
        // Past the digit limits (15 for a value, 18 for the scan): the general path's to judge.
        #"{"type":"sample","session":"s","ts":1234567890123456,"quantity":"heart_rate","value":100}"#,
        #"{"type":"sample","session":"s","ts":1234567890123456789,"quantity":"heart_rate","value":100}"#,
        #"{"type":"sample","session":"s","ts":0,"quantity":"cycling_power","value":1234567890123456789}"#,
        #"{"type":"sample","session":"s","ts":0,"quantity":"cycling_power","value":0.1234567890123456789}"#,
        #"{"type":"sample","session":"s","ts":0,"quantity":"cycling_power","value":1234567890123456789.5}"#,
    ])
    func numberEdgesAgree(text: String) {
        let (fast, general) = Self.both(Array(text.utf8), key: Array("s".utf8))
        if let fast { #expect(general == .success(fast)) }
        #expect(DecoderAgreement.check(Array(text.utf8), key: Array("s".utf8)) == .agreed)
    }

    @Test func aKeyThatDiffersFromTheSessionIsLeftToTheGeneralPath() {
        let text = Array(#"{"type":"sample","session":"s","ts":5,"quantity":"heart_rate","value":100}"#.utf8)
        let (fast, general) = Self.both(text, key: Array("t".utf8))
        #expect(fast == nil)
        #expect(general.failureReason == .keyMismatch)
    }
}

extension Result where Failure == Rejection {
    fileprivate var failureReason: DeadLetterReason? {
        if case .failure(let rejection) = self { rejection.reason } else { nil }
    }
}
