import Testing

@testable import ZoneKafka

/// The summarising of librdkafka's repeated warnings: one line per kind and interval, the next
/// one carrying how many were left out. librdkafka logs from several threads, so the clock
/// readings of one kind need not arrive in order.
struct LibrdkafkaLogTests {
    @Test func aKindIsLoggedOncePerIntervalWithTheCountLeftOut() {
        let kind = "summary-test/FAIL"
        let interval = LibrdkafkaLog.summaryIntervalMs
        #expect(LibrdkafkaLog.admit(kind: kind, nowMs: 50_000) == (true, 0))
        #expect(LibrdkafkaLog.admit(kind: kind, nowMs: 50_001) == (false, 0))
        #expect(LibrdkafkaLog.admit(kind: kind, nowMs: 50_000 + interval - 1) == (false, 0))
        #expect(LibrdkafkaLog.admit(kind: kind, nowMs: 50_000 + interval) == (true, 2))
        #expect(LibrdkafkaLog.admit(kind: "summary-test/OTHER", nowMs: 50_001) == (true, 0))
    }

    /// Two threads read the clock, and the later reading takes the lock first: the earlier one
    /// is a line of the current interval, left out and counted (it used to trap, on a
    /// librdkafka thread, ending the process without a word).
    @Test func aClockReadingEarlierThanTheLastLineIsLeftOut() {
        let kind = "summary-test/RACE"
        #expect(LibrdkafkaLog.admit(kind: kind, nowMs: 80_000) == (true, 0))
        #expect(LibrdkafkaLog.admit(kind: kind, nowMs: 79_999) == (false, 0))
        #expect(LibrdkafkaLog.admit(kind: kind, nowMs: 80_000 + LibrdkafkaLog.summaryIntervalMs) == (true, 1))
    }
}
