import Logging
import ZoneCodecs
import ZoneEngine
import ZoneKafka

/// Applies `zone-profiles` records to the ``ProfileTable``: invalid fields are ignored (the
/// contract), a record that is not a profile is logged, and a new person past `max_profiles`
/// is refused, counted and logged.
final class ProfileRecords: @unchecked Sendable {
    // @unchecked: the decoder and the warning are used only by the one table reader's thread.
    private let table: ProfileTable
    private let metrics: ProcessorMetrics
    private let logger: Logger
    private var decoder = ProfileDecoder()
    private var refusals = RepeatedWarning("profile table full; a new person's profile is refused")

    init(table: ProfileTable, metrics: ProcessorMetrics, logger: Logger) {
        self.table = table
        self.metrics = metrics
        self.logger = logger
    }

    func apply(_ record: KafkaRecord) {
        let key = record.key.map { String(decoding: $0, as: UTF8.self) }
        switch decoder.decode(value: record.value, key: key) {
        case .success(.upsert(let profile)):
            guard !table.upsert(profile) else { return }
            metrics.countProfileRefused()
            refusals.log(to: logger, metadata: ["max_profiles": .stringConvertible(table.limit)])
        case .success(.delete(let person)): table.delete(person)
        case .failure(let rejection):
            logger.warning("profile record ignored", metadata: ["reason": "\(rejection.reason.rawValue)"])
        }
    }
}
