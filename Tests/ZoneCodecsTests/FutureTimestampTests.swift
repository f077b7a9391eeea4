import Testing
import ZoneCodecs
import ZoneEngine

/// `max_future_ms` (contract, section 3): an event's time, or a series' last value's time,
/// may run at most that far ahead of the earlier of its record's Kafka timestamp and the
/// processor's clock when it read the record; beyond it the record is `out_of_range`, whatever
/// else it is.
@Suite struct FutureTimestampTests {
    static let recordTimestamp: Int64 = 1_717_200_000_000
    static let day: Int64 = 86_400_000

    static func decode(
        _ text: String, recordTimestampMs: Int64 = recordTimestamp, readAtMs: Int64 = recordTimestamp + 50,
        maxFutureMs: Int64 = day
    ) -> Result<WorkoutEvent, Rejection> {
        var decoder = WorkoutEventDecoder(maxFutureMs: maxFutureMs)
        return Array(text.utf8).withUnsafeBytes {
            decoder.decode(value: $0, key: nil, recordTimestampMs: recordTimestampMs, readAtMs: readAtMs)
        }
    }

    static func sample(ts: Int64) -> String {
        #"{"type":"sample","session":"s","ts":\#(ts),"quantity":"heart_rate","value":120}"#
    }

    static func reason(_ result: Result<WorkoutEvent, Rejection>) -> DeadLetterReason? {
        if case .failure(let rejection) = result { return rejection.reason }
        return nil
    }

    @Test func aTimeUpToTheBoundIsAcceptedAndOnePastItIsOutOfRange() {
        #expect(Self.reason(Self.decode(Self.sample(ts: Self.recordTimestamp + Self.day))) == nil)
        #expect(Self.reason(Self.decode(Self.sample(ts: Self.recordTimestamp + Self.day + 1))) == .outOfRange)
        // Times in the past are late or not, as the counting rules say: never out of range here.
        #expect(Self.reason(Self.decode(Self.sample(ts: 0))) == nil)
    }

    /// The adversary's probes: a clock ten years ahead, and a gateway sending microseconds
    /// (1.7e15, under 2^53), on every event type.
    @Test(arguments: [
        Self.recordTimestamp + 10 * 365 * Self.day, Self.recordTimestamp * 1000,
    ])
    func aFarFutureClockIsOutOfRangeOnEveryType(_ ts: Int64) {
        for type in ["session_start", "session_end", "pause", "resume", "activity_end"] {
            let text = #"{"type":"\#(type)","session":"s","ts":\#(ts)}"#
            #expect(Self.reason(Self.decode(text)) == .outOfRange, "\(type)")
        }
        #expect(Self.reason(Self.decode(Self.sample(ts: ts))) == .outOfRange)
        let text = #"{"type":"activity_start","session":"s","ts":\#(ts),"activity":"run"}"#
        #expect(Self.reason(Self.decode(text)) == .outOfRange)
    }

    @Test func aSeriesIsBoundByItsLastValue() {
        let start = Self.recordTimestamp + Self.day - 2000
        func series(interval: Int) -> String {
            #"{"type":"sample_series","session":"s","ts":\#(start),"quantity":"heart_rate","interval_ms":\#(interval),"values":[120,121,122]}"#
        }
        #expect(Self.reason(Self.decode(series(interval: 1000))) == nil)
        guard case .failure(let rejection) = Self.decode(series(interval: 1001)) else {
            Issue.record("a series whose last value is past the bound was accepted")
            return
        }
        #expect(rejection.reason == .outOfRange)
        #expect(rejection.detail.contains("last value"), "\(rejection.detail)")
    }

    /// A gateway that stamps its records with the device's clock, ten years ahead, under
    /// `CreateTime`: the processor's clock bounds the event, not the record's timestamp.
    @Test func aProducerStampingADeviceClockAheadIsBoundByTheProcessorsClock() {
        let deviceClock = Self.recordTimestamp + 10 * 365 * Self.day
        let result = Self.decode(
            Self.sample(ts: deviceClock), recordTimestampMs: deviceClock, readAtMs: Self.recordTimestamp)
        #expect(Self.reason(result) == .outOfRange)
        if case .failure(let rejection) = result {
            #expect(rejection.detail.contains("the processor's clock"), "\(rejection.detail)")
        }
        // Up to the bound from the processor's clock, the event is accepted.
        #expect(
            Self.reason(
                Self.decode(
                    Self.sample(ts: Self.recordTimestamp + Self.day), recordTimestampMs: deviceClock,
                    readAtMs: Self.recordTimestamp)) == nil)
        // A record stamped earlier than the processor's clock is bound by its own timestamp.
        #expect(
            Self.reason(
                Self.decode(
                    Self.sample(ts: Self.recordTimestamp + Self.day + 1),
                    readAtMs: Self.recordTimestamp + 10 * Self.day)) == .outOfRange)
    }

    @Test func aRecordWithoutTimestampIsBoundByTheProcessorsClock() {
        #expect(Self.reason(Self.decode(Self.sample(ts: 1 << 52), recordTimestampMs: -1)) == .outOfRange)
        #expect(Self.reason(Self.decode(Self.sample(ts: Self.recordTimestamp), recordTimestampMs: -1)) == nil)
    }

    @Test func anEarlierDefectIsDecidedFirst() {
        let badUnit = #"{"type":"sample","session":"s","ts":\#(1 << 52),"quantity":"heart_rate","value":1,"unit":"x"}"#
        #expect(Self.reason(Self.decode(badUnit)) == .badUnit)
        #expect(Self.reason(Self.decode(Self.sample(ts: Self.recordTimestamp + 5), maxFutureMs: 0)) == .outOfRange)
    }
}
