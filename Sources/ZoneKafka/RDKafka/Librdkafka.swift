import CRdKafka

/// Facts about the librdkafka this process runs with.
public enum Librdkafka {
    /// The library's version as it reports it at run time (`2.0.2`): the shared library
    /// loaded, which may differ from the headers the build saw.
    public static var version: String { String(cString: rd_kafka_version_str()) }
}
