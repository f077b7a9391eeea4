import ArgumentParser
import Foundation
import ZoneKafka
import ZoneProcessor

/// How every command ends, in the style of sysexits.h (docs/reference/commands.md lists them):
/// 0 done, 1 a failure while running, 64 a wrong command line (ArgumentParser's own),
/// 69 no Kafka broker answered at start, 78 a refused setting.
enum ExitStatus {
    static let unavailable: Int32 = 69
    static let configuration: Int32 = 78

    /// Runs a command's body; a refused setting or an unreachable broker is printed on
    /// standard error and ends the process with its own status instead of 1.
    static func mapping(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error as SettingsError {
            throw report(error, status: configuration)
        } catch let error as TopicLayout.Refusal {
            throw report(error, status: configuration)
        } catch let error as BrokerUnavailable {
            throw report(error, status: unavailable)
        } catch let error as ProcessorError where error.isRefusedLayout {
            throw report(error, status: configuration)
        }
    }

    private static func report(_ error: some CustomStringConvertible, status: Int32) -> ExitCode {
        FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
        return ExitCode(status)
    }
}

/// A command failed while running (exit status 1), with what happened.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
}

/// No Kafka broker answered at start (exit status 69).
struct BrokerUnavailable: Error, CustomStringConvertible {
    let description: String

    /// Asks the cluster for its topics; throws when no broker answers within `timeoutS`,
    /// naming the address, the wait and the option or setting that sets it.
    static func require(using producer: KafkaProducer, bootstrapServers: String, timeoutS: Int, setting: String)
        throws(BrokerUnavailable)
    {
        do {
            _ = try TopicAdmin.existingTopics(using: producer, timeoutMs: Int32(clamping: timeoutS * 1000))
        } catch {
            throw BrokerUnavailable(
                description:
                    "no Kafka broker answered at \(bootstrapServers) within \(timeoutS) s (\(error.message)); is it running? (\(setting))"
            )
        }
    }
}
