import Foundation
import Testing
import ZoneTestSupport

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
    /// is a line of the current interval, left out and counted, and nothing traps.
    @Test func aClockReadingEarlierThanTheLastLineIsLeftOut() {
        let kind = "summary-test/RACE"
        #expect(LibrdkafkaLog.admit(kind: kind, nowMs: 80_000) == (true, 0))
        #expect(LibrdkafkaLog.admit(kind: kind, nowMs: 79_999) == (false, 0))
        #expect(LibrdkafkaLog.admit(kind: kind, nowMs: 80_000 + LibrdkafkaLog.summaryIntervalMs) == (true, 1))
    }

    /// librdkafka starts its threads with every signal blocked; once one of them has logged
    /// through the callback, a fault there (a trap, a bad access) reaches the runtime's
    /// handler and its backtrace, while SIGTERM stays for the application's threads. A
    /// producer whose broker refuses the connection logs the refusal on its broker thread.
    @Test func aLibrdkafkaThreadThatLoggedPrintsItsCrashes() throws {
        let producer = try KafkaProducer(configuration: KafkaConfiguration(bootstrapServers: "127.0.0.1:1"))
        defer { _ = producer }
        let unblocked = Eventually.holds(within: 20) {
            Self.librdkafkaThreadMasks().contains { !$0.blocks(SIGILL) && !$0.blocks(SIGSEGV) }
        }
        let masks = Self.librdkafkaThreadMasks()
        #expect(unblocked, "no librdkafka thread has its fault signals unblocked: \(masks)")
        #expect(masks.allSatisfy { $0.blocks(SIGTERM) }, "\(masks)")
    }

    /// A thread's blocked signals, from /proc (`SigBlk`, a hexadecimal bit mask).
    struct SignalMask: CustomStringConvertible {
        let thread: String
        let bits: UInt64
        func blocks(_ signal: Int32) -> Bool { bits & (1 << UInt64(signal - 1)) != 0 }
        var description: String { "\(thread): \(String(bits, radix: 16))" }
    }

    /// The blocked signals of this process's librdkafka threads (named `rdk:...`).
    static func librdkafkaThreadMasks() -> [SignalMask] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { task in
            let directory = "/proc/self/task/\(task)/"
            guard let comm = try? String(contentsOfFile: directory + "comm", encoding: .utf8),
                comm.hasPrefix("rdk:"),
                let status = try? String(contentsOfFile: directory + "status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigBlk:") }),
                let bits = UInt64(line.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces), radix: 16)
            else { return nil }
            return SignalMask(thread: comm.trimmingCharacters(in: .whitespacesAndNewlines), bits: bits)
        }
    }
}
