import Dispatch
import Foundation
import Logging
import Synchronization
import ZoneKafka

/// Reads input records again by their topic, partition and offset, on a thread of its own: how
/// the dead letter of an input whose output the broker refused for good gets the input's bytes.
///
/// Outputs carry only where their input lies (``OutputContext``), so the rare refusal pays for
/// one read and no output carries a copy of its input. Nobody waits on the read: its answer is
/// handed to the asker's closure on this thread (``DeadLetterPolicy`` produces the dead letter
/// from it, into the tracker it holds open meanwhile). A record that cannot be read again
/// (removed by retention or compaction, an aborted transaction's, the brokers silent for
/// ``readTimeoutMs``) is answered with the reason, and its dead letter carries its
/// coordinates alone. The consumer is made with the first read: most processes never need it.
final class InputRecordFetcher: Sendable {
    /// A record read again: its key and value as they are in the topic.
    struct Fetched: Sendable {
        let key: [UInt8]?
        let value: [UInt8]?
    }

    /// Why a record was not read again, in words for the dead letter's detail.
    struct Unreadable: Error, Sendable {
        let reason: String
    }

    typealias Answer = @Sendable (Result<Fetched, Unreadable>) -> Void

    private struct Request: Sendable {
        let topic: String
        let partition: Int32
        let offset: Int64
        let answer: Answer
    }

    private struct Queue {
        var requests: [Request] = []
        var thread: JoinableThread?
        var stopped = false
    }

    private let kafka: KafkaConfiguration
    private let logger: Logger
    private let queue = Mutex(Queue())
    private let wake = DispatchSemaphore(value: 0)

    /// How long one read may take before its record counts as unreadable.
    static let readTimeoutMs = 10_000
    /// Reads waiting at most; beyond it a refusal is answered at once without the bytes (a
    /// topic that refuses every output must not grow this without end).
    static let waitingLimit = 10_000

    init(kafka: KafkaConfiguration, logger: Logger) {
        self.kafka = kafka
        self.logger = logger
    }

    /// Reads the record at `offset` of `topic`'s `partition` and hands it to `answer`, later and
    /// on the fetcher's thread (at once, on the caller's, when the fetcher is stopped or full).
    func fetch(topic: String, partition: Int32, offset: Int64, answer: @escaping Answer) {
        let refusal: String? = queue.withLock { queue in
            if queue.stopped { return "the processor is stopping" }
            guard queue.requests.count < Self.waitingLimit else {
                return "\(Self.waitingLimit) inputs of refused outputs are being read already"
            }
            queue.requests.append(Request(topic: topic, partition: partition, offset: offset, answer: answer))
            if queue.thread == nil { queue.thread = JoinableThread(name: "zs-input-fetch") { [self] in run() } }
            return nil
        }
        if let refusal { return answer(.failure(Unreadable(reason: refusal))) }
        wake.signal()
    }

    /// Answers what is still waiting as unreadable and stops the thread. Call once every
    /// producer of outputs has stopped, before the producer flushes.
    func stop() {
        let thread = queue.withLock { queue in
            queue.stopped = true
            return queue.thread
        }
        wake.signal()
        thread?.join()
    }

    private func run() {
        var consumer: KafkaConsumer?
        defer { consumer?.close() }
        while true {
            _ = wake.wait(timeout: .now() + .seconds(1))
            let (requests, stopped) = queue.withLock { queue in
                defer { queue.requests.removeAll() }
                return (queue.requests, queue.stopped)
            }
            for request in requests {
                guard !stopped else {
                    request.answer(.failure(Unreadable(reason: "the processor is stopping")))
                    continue
                }
                request.answer(read(request, with: &consumer))
            }
            if stopped { return }
        }
    }

    private func read(_ request: Request, with consumer: inout KafkaConsumer?) -> Result<Fetched, Unreadable> {
        do {
            let reader = try consumer ?? KafkaConsumer(configuration: kafka, groupID: nil, logger: logger)
            consumer = reader
            return try Self.read(request, from: reader)
        } catch let unreadable as Unreadable {
            return .failure(unreadable)
        } catch {
            return .failure(Unreadable(reason: "\(error)"))
        }
    }

    /// Reads from the record's offset until it (or a later record: the asked one is gone) comes.
    private static func read(_ request: Request, from consumer: KafkaConsumer) throws -> Result<Fetched, Unreadable> {
        let start = TopicPartition(topic: request.topic, partition: request.partition, offset: request.offset)
        try consumer.assign([start])
        defer { try? consumer.assign([]) }
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(readTimeoutMs) * 1_000_000
        var answer: Result<Fetched, Unreadable>?
        while answer == nil && DispatchTime.now().uptimeNanoseconds < deadline {
            consumer.poll(timeoutMs: 100) { record in
                guard record.partition == request.partition, record.offset >= request.offset,
                    record.topic == request.topic
                else { return }
                guard record.offset == request.offset else {
                    answer = .failure(
                        Unreadable(
                            reason: "offset \(request.offset) is no longer in the topic (next: \(record.offset))"))
                    return
                }
                answer = .success(Fetched(key: record.key.map { Array($0) }, value: record.value.map { Array($0) }))
            }
        }
        return answer ?? .failure(Unreadable(reason: "not read within \(readTimeoutMs) ms"))
    }
}
