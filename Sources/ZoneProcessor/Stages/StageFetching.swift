/// How the stages and the group-wide tables consume their low-rate topics.
enum StageFetching {
    /// Fetching for a topic of a few records a second: long waits, small pre-fetch queues.
    static let lowRate = [
        "fetch.wait.max.ms": "500", "queued.min.messages": "1000", "queued.max.messages.kbytes": "1024",
    ]
}
