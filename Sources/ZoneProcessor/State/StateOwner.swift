import ZoneKafka

/// The application a state record belongs to. Every record ZoneStream writes to a changelog
/// carries a `zonestream-application` header naming its application (the consumer group), so
/// an instance never restores state another application wrote: a changelog shared by two
/// groups (names pinned to one topic by hand) would otherwise mark another group's sessions as
/// finished here, and this group would produce nothing for them. A record without the header
/// (written by a release before the header) is taken as this application's.
struct StateOwner: Sendable {
    static let headerName = "zonestream-application"

    /// A record another application wrote, met while reading a changelog.
    struct ForeignRecord: Error {
        let writer: String
        let offset: Int64
    }

    let application: String
    /// The header every state record of this application carries.
    let header: KafkaHeader

    init(application: String) {
        self.application = application
        header = KafkaHeader(name: Self.headerName, value: Array(application.utf8))
    }

    /// Whether `record` was written by another application (its header names another).
    func isForeign(_ record: KafkaRecord) -> Bool {
        record.header(named: Self.headerName, equals: header.value) == false
    }

    /// The application `record` names, for messages (copies; not for every record).
    static func writer(of record: KafkaRecord) -> String {
        record.header(named: headerName).map { String(decoding: $0, as: UTF8.self) } ?? "(none)"
    }

    /// What an operator should do about a changelog another application wrote.
    func refusal(topic: String, partition: Int32, offset: Int64? = nil, writer: String) -> String {
        "'\(topic)' partition \(partition)\(offset.map { " offset \($0)" } ?? "") holds state written by application '\(writer)', not '\(application)' (group_id): two applications cannot share a changelog. Give this one its own topics (leave topics.changelog, topics.person_changelog and topics.class_changelog empty: they are then named after group_id), or, if that application is gone and this one is meant to take its state over, run it with group_id=\(writer)"
    }
}
