import CMalloc
import Foundation
import Synchronization

/// Gives the memory glibc's allocator keeps after it was freed back to the system, every
/// `intervalMs` (`memory.trim_interval_ms`).
///
/// A worker frees much at each commit interval (the changelog records of every changed
/// session once delivered, its old live-view table) among allocations that live on (sessions
/// and their views), and glibc returns free memory to the system only from the top of a heap,
/// so the freed pages stay resident: about 40% of the RSS growth per live session
/// (benchmarks/README.md). `malloc_trim` releases every whole free page in every arena. It
/// takes each arena's lock while it walks it (2-7 ms with 100,000 live sessions, measured), so
/// it runs on a thread of its own, seconds apart.
final class HeapTrimmer: Sendable {
    /// What the thread and its owner share.
    private final class State: Sendable {
        let running = Atomic<Bool>(true)
        let released = Atomic<Int>(0)
    }
    private let state = State()
    private let thread: JoinableThread?

    /// Starts trimming every `intervalMs`; 0 starts nothing. `trim` gives the memory back and
    /// says whether there was any (glibc's `malloc_trim`; tests count calls instead).
    init(intervalMs: Int, trim: @escaping @Sendable () -> Bool = { malloc_trim(0) != 0 }) {
        guard intervalMs > 0 else {
            thread = nil
            return
        }
        let state = self.state
        let interval = Double(intervalMs) / 1000
        thread = JoinableThread(name: "zs-heap-trim") {
            var next = Date().addingTimeInterval(interval)
            while state.running.load(ordering: .relaxed) {
                // Short sleeps, so a stop is not held up by a long interval.
                Thread.sleep(forTimeInterval: min(0.1, max(0, next.timeIntervalSinceNow)))
                guard Date() >= next else { continue }
                if trim() { state.released.add(1, ordering: .relaxed) }
                next = Date().addingTimeInterval(interval)
            }
        }
    }

    /// Whether a trimming thread runs (none for an interval of 0).
    var hasThread: Bool { thread != nil }

    /// How many trims released memory so far.
    var trimsThatReleased: Int { state.released.load(ordering: .relaxed) }

    func stop() {
        state.running.store(false, ordering: .relaxed)
        thread?.join()
    }
}
