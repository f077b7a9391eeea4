import Foundation
import Synchronization
import Testing
import ZoneTestSupport

@testable import ZoneProcessor

/// The heap trimmer calls its trim every interval on a thread of its own, not at all with an
/// interval of 0, and never after it has stopped. The trim is counted here rather than run:
/// glibc's `malloc_trim` every few milliseconds would slow every other test in this process,
/// and what it gives back is measured by `zonestream bench memory` (benchmarks/README.md).
@Suite(.processSuite, .timeLimit(.minutes(10)))
struct HeapTrimmerTests {
    final class Calls: Sendable {
        let count = Atomic<Int>(0)
    }

    /// A trimmer every `intervalMs` whose trim counts its calls and answers `released`.
    static func trimmer(every intervalMs: Int, counting calls: Calls, released: Bool) -> HeapTrimmer {
        HeapTrimmer(intervalMs: intervalMs) {
            calls.count.add(1, ordering: .relaxed)
            return released
        }
    }

    @Test func itTrimsEveryIntervalUntilItStops() {
        let calls = Calls()
        let trimmer = Self.trimmer(every: 20, counting: calls, released: true)
        Eventually.holds(within: 60, poll: 0.02) { trimmer.trimsThatReleased >= 3 }
        #expect(trimmer.trimsThatReleased >= 3)
        trimmer.stop()
        let afterStop = calls.count.load(ordering: .relaxed)
        Thread.sleep(forTimeInterval: 0.1)
        #expect(calls.count.load(ordering: .relaxed) == afterStop, "no trim after stop")
        #expect(trimmer.trimsThatReleased == afterStop)
    }

    @Test func anIntervalOfZeroStartsNoThread() {
        let calls = Calls()
        let trimmer = Self.trimmer(every: 0, counting: calls, released: true)
        #expect(!trimmer.hasThread)
        #expect(Self.trimmer(every: 20, counting: Calls(), released: true).hasThread)
        trimmer.stop()
        #expect(calls.count.load(ordering: .relaxed) == 0)
    }

    @Test func aTrimThatReleasedNothingIsNotCounted() {
        let calls = Calls()
        let trimmer = Self.trimmer(every: 10, counting: calls, released: false)
        Eventually.holds(within: 60, poll: 0.02) { calls.count.load(ordering: .relaxed) >= 2 }
        trimmer.stop()
        #expect(calls.count.load(ordering: .relaxed) >= 2)
        #expect(trimmer.trimsThatReleased == 0)
    }
}
