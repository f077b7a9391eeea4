import ZoneCodecs
import ZoneEngine

/// Whether the fast decoder and the jansson reference agree on one record: the proof that
/// the fast path is equal to jansson, shared by the differential test and the fuzzer.
public enum DecoderAgreement {
    public enum Verdict: Equatable, Sendable {
        /// Same event, or same rejection.
        case agreed
        /// jansson refused a number too large for it; the contract calls such values out of
        /// range, which is where the strict parser differs on purpose.
        case numericOverflow
        case differ(String)
    }

    /// Decodes `value` with both decoders and compares the outcomes.
    public static func check(_ value: [UInt8], key: [UInt8]?, maxMessageBytes: Int = 65_536) -> Verdict {
        var production = WorkoutEventDecoder(maxMessageBytes: maxMessageBytes)
        let reference = JanssonEventDecoder(maxMessageBytes: maxMessageBytes)
        let ours = production.decode(value: value, key: key)
        let theirs = value.withUnsafeBytes { valueBytes in
            key.map { key in key.withUnsafeBytes { reference.decode(value: valueBytes, key: $0) } }
                ?? reference.decode(value: valueBytes, key: nil)
        }
        if let parseError = theirs.parseError {
            if parseError.isNumericOverflow { return .numericOverflow }
            guard case .failure(let rejection) = ours, rejection.reason == .malformedJSON else {
                return .differ("jansson refused (\(parseError.message)) but ours gave \(ours)")
            }
            return .agreed
        }
        switch (ours, theirs.result) {
        case (.success(let a), .success(let b)) where a == b: return .agreed
        case (.failure(let a), .failure(let b)) where a == b: return .agreed
        default: return .differ("ours \(ours), jansson \(theirs.result)")
        }
    }
}
