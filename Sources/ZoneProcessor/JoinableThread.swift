import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A named OS thread that is joined: when ``join()`` returns, the thread has exited and its
/// closure (with everything it captured, such as Kafka clients) has been released.
///
/// Blocking librdkafka calls run on these, never on Swift's cooperative pool.
/// `@unchecked Sendable`: `handle` is written once in init and only read by `join`.
public final class JoinableThread: @unchecked Sendable {
    private var handle = pthread_t()
    private var joined = false

    private final class Body {
        let name: String
        let run: @Sendable () -> Void
        init(name: String, run: @escaping @Sendable () -> Void) {
            self.name = name
            self.run = run
        }
    }

    /// Starts the thread. `name` is shortened to the 15 bytes Linux allows.
    public init(name: String, _ run: @escaping @Sendable () -> Void) {
        let body = Unmanaged.passRetained(Body(name: name, run: run)).toOpaque()
        let result = pthread_create(
            &handle, nil,
            { raw in
                guard let raw else { return nil }
                let body = Unmanaged<Body>.fromOpaque(raw).takeRetainedValue()
                // Foundation sets the OS thread name (pthread_setname_np is not exported to Swift).
                Thread.current.name = String(body.name.utf8.prefix(15)) ?? "zonestream"
                body.run()
                return nil
            }, body)
        // Creating a thread fails only when the system is out of resources; nothing can go on.
        precondition(result == 0, "pthread_create failed: \(result)")
    }

    /// Waits for the thread to finish. Call once.
    public func join() {
        guard !joined else { return }
        joined = true
        pthread_join(handle, nil)
    }
}
