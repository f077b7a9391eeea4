import Foundation
public import Testing

/// The trait of a suite whose tests start brokers and processes and wait on them: its tests
/// run on threads of their own, and only a few such suites run at once.
///
/// Such a test blocks while it waits (for a process's output, an exit, a broker's topic):
/// that is how ``Eventually`` and the process helpers wait. On Swift's shared thread pool,
/// which has one thread per core, two such tests on a two-core machine held every thread, so
/// the whole run went two tests at a time, the quick ones queued behind the slow. Here each
/// job of the suite's tasks runs on a thread of its own, and a gate of
/// `ZONESTREAM_TEST_PROCESS_SUITES` places (default ``defaultWidth``, two per core) bounds how many such
/// suites run at once, so their processes do not starve each other of CPU. The gate is taken
/// around the whole suite, outside its tests' time limits: waiting for a place never counts
/// against a test.
public struct ProcessSuite: SuiteTrait, TestScoping {
    /// How a suite weighs on the machine, for the gate.
    public enum Kind: Sendable {
        /// A few short tests: one place, in turn.
        case short
        /// Minutes of tests: one place, let in before the short suites waiting, so that the
        /// run does not end with one long suite alone on the machine.
        case long
        /// Processes that keep the machine busy (dozens of workers, thousands of
        /// connections) or a broker that must answer on time (noida-db keeps a group member
        /// whose join timed out, and the group then waits for it): two places, let in before
        /// the others waiting.
        case heavy

        var places: Int { self == .heavy ? 2 : 1 }
        var goesFirst: Bool { self != .short }
    }

    /// Places when the environment does not say: two per core. Most of a suite's time is
    /// waiting on its processes; at three per core the largest-settings test (64 workers)
    /// once missed its check's deadline beside the other suites.
    public static var defaultWidth: Int { 2 * ProcessInfo.processInfo.activeProcessorCount }

    public let kind: Kind

    public var isRecursive: Bool { false }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? self : nil
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        await Self.gate.enter(places: kind.places, first: kind.goesFirst)
        do {
            try await withTaskExecutorPreference(ThreadPerJobExecutor.shared) { try await function() }
        } catch {
            await Self.gate.leave(places: kind.places)
            throw error
        }
        await Self.gate.leave(places: kind.places)
    }

    static let gate = SuiteGate(width: width(from: ProcessInfo.processInfo.environment))

    /// The gate's width from `ZONESTREAM_TEST_PROCESS_SUITES`; the default when it is
    /// missing or not a number of at least two (a heavy suite takes two places).
    static func width(from environment: [String: String]) -> Int {
        guard let text = environment["ZONESTREAM_TEST_PROCESS_SUITES"], let width = Int(text), width >= 2 else {
            return max(2, defaultWidth)
        }
        return width
    }
}

extension Trait where Self == ProcessSuite {
    /// Tests that start processes and block while waiting on them: see ``ProcessSuite``.
    public static var processSuite: Self { ProcessSuite(kind: .short) }

    /// As ``processSuite``, for a suite of the given kind.
    public static func processSuite(_ kind: ProcessSuite.Kind) -> Self { ProcessSuite(kind: kind) }
}

/// `width` places; a holder takes one or more. Waiters are let in in order, those asking to go
/// first ahead of the others, and a waiter that does not fit yet holds back those behind it.
actor SuiteGate {
    private struct Waiter {
        let places: Int
        let first: Bool
        let continuation: CheckedContinuation<Void, Never>
    }

    private var free: Int
    private var waiting: [Waiter] = []

    init(width: Int) { free = width }

    func enter(places: Int, first: Bool) async {
        if waiting.isEmpty && free >= places {
            free -= places
            return
        }
        await withCheckedContinuation { continuation in
            let waiter = Waiter(places: places, first: first, continuation: continuation)
            if first, let firstShort = waiting.firstIndex(where: { !$0.first }) {
                waiting.insert(waiter, at: firstShort)
            } else {
                waiting.append(waiter)
            }
        }
    }

    func leave(places: Int) {
        free += places
        while let next = waiting.first, next.places <= free {
            waiting.removeFirst()
            free -= next.places
            next.continuation.resume()
        }
    }
}

/// Runs every job on a new thread: a job that blocks (a test waiting on a process) then
/// holds only its own thread. A test's task has a handful of jobs (one per resumption), so
/// a thread each costs nothing that matters.
final class ThreadPerJobExecutor: TaskExecutor {
    static let shared = ThreadPerJobExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        Thread { job.runSynchronously(on: executor) }.start()
    }
}
