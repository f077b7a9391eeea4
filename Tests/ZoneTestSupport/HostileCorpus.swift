public import ZoneEngine

/// Bad input a sensor gateway (or an attacker) can send, each with the dead-letter reason
/// docs/reference/contract.md gives it. Used by the codec tests, the processor test through
/// Kafka, and as the fuzzer's seed corpus.
public enum HostileCorpus {
    public struct Entry: Sendable {
        public let name: String
        public let key: [UInt8]?
        public let value: [UInt8]?
        public let reason: DeadLetterReason
    }

    public static let session = "hostile"

    static func sample(_ fields: String, session: String = HostileCorpus.session) -> String {
        "{\"type\":\"sample\",\"session\":\"\(session)\",\"ts\":1717200000000,\(fields)}"
    }

    static func entry(_ name: String, _ value: String, _ reason: DeadLetterReason, key: String? = HostileCorpus.session)
        -> Entry
    {
        Entry(name: name, key: key.map { Array($0.utf8) }, value: Array(value.utf8), reason: reason)
    }

    static func entry(_ name: String, bytes: [UInt8], _ reason: DeadLetterReason) -> Entry {
        Entry(name: name, key: Array(session.utf8), value: bytes, reason: reason)
    }

    /// Every entry; a few hundred records.
    public static var entries: [Entry] {
        var entries: [Entry] = []
        let valid = Array(sample(#""quantity":"heart_rate","value":120"#).utf8)
        // Truncated JSON: every proper prefix of a valid sample.
        for length in 0..<valid.count {
            entries.append(entry("truncated at \(length)", bytes: Array(valid[..<length]), .malformedJSON))
        }
        entries += [
            entry("not JSON", "hello", .malformedJSON),
            entry("array", "[1,2,3]", .malformedJSON),
            entry("trailing garbage", sample(#""quantity":"heart_rate","value":120"#) + "}", .malformedJSON),
            entry("single quotes", "{'type':'sample'}", .malformedJSON),
            entry("NaN", sample(#""quantity":"heart_rate","value":NaN"#), .malformedJSON),
            entry("Infinity", sample(#""quantity":"heart_rate","value":Infinity"#), .malformedJSON),
            entry("-Infinity", sample(#""quantity":"heart_rate","value":-Infinity"#), .malformedJSON),
            entry("nan lower case", sample(#""quantity":"heart_rate","value":nan"#), .malformedJSON),
            entry("escaped NUL", sample(#""quantity":"heart_rate","value":120,"person":"a\u0000b""#), .malformedJSON),
            // Numbers too large for a double or Int64 are out of range, as 1e400 is (docs/reference/contract.md).
            entry(
                "huge integer literal", sample(#""quantity":"heart_rate","value":99999999999999999999999999"#),
                .outOfRange),
            entry("comment", "/* */" + sample(#""quantity":"heart_rate","value":120"#), .malformedJSON),
        ]
        // Invalid UTF-8 inside a string.
        for (name, bad) in [
            ("lone continuation", [0x80]), ("bad lead", [0xFF]), ("overlong", [0xC0, 0xAF]),
            ("surrogate", [0xED, 0xA0, 0x80]), ("truncated sequence", [0xE2, 0x82]),
        ] as [(String, [UInt8])] {
            var bytes = Array(#"{"type":"sample","session":"hos"#.utf8)
            bytes += bad
            bytes += Array(#"tile","ts":1,"quantity":"heart_rate","value":120}"#.utf8)
            entries.append(entry("invalid UTF-8: \(name)", bytes: bytes, .malformedJSON))
        }
        // Deep nesting in an unknown field, past jansson's depth limit (2048).
        let deep = String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)
        entries.append(
            entry("nesting 5000 deep", sample(#""quantity":"heart_rate","value":120,"extra":"# + deep), .malformedJSON))
        // A 1 MB value.
        let megabyte = String(repeating: "x", count: 1 << 20)
        entries.append(
            entry("1 MB string", sample(#""quantity":"heart_rate","value":120,"note":""# + megabyte + "\""), .tooLarge))
        entries.append(entry("1 MB of spaces", String(repeating: " ", count: 1 << 20), .tooLarge))
        entries += [
            entry("no type", #"{"session":"hostile","ts":1}"#, .missingField),
            entry("null value", sample(#""quantity":"heart_rate","value":null"#), .missingField),
            entry("no quantity", sample(#""value":120"#), .missingField),
            entry("session is a number", #"{"type":"pause","session":42,"ts":1}"#, .badType),
            entry("ts is a string", #"{"type":"pause","session":"hostile","ts":"1"}"#, .badType),
            entry("ts has a fraction", #"{"type":"pause","session":"hostile","ts":1.5}"#, .badType),
            entry("ts in exponent form", #"{"type":"pause","session":"hostile","ts":1e3}"#, .badType),
            entry("ts huge exponent", #"{"type":"pause","session":"hostile","ts":1e300}"#, .badType),
            entry("value is a boolean", sample(#""quantity":"heart_rate","value":true"#), .badType),
            entry("value is an object", sample(#""quantity":"heart_rate","value":{"v":1}"#), .badType),
            entry("unknown quantity", sample(#""quantity":"speed","value":3"#), .badType),
            entry(
                "series of strings",
                #"{"type":"sample_series","session":"hostile","ts":1,"quantity":"heart_rate","interval_ms":1000,"values":["a"]}"#,
                .badType),
            entry("type upper case", #"{"type":"SAMPLE","session":"hostile","ts":1}"#, .unknownType),
            entry("type empty", #"{"type":"","session":"hostile","ts":1}"#, .unknownType),
            entry("type unknown", #"{"type":"teleport","session":"hostile","ts":1}"#, .unknownType),
            entry("session empty", #"{"type":"pause","session":"","ts":1}"#, .invalidSession, key: nil),
            entry(
                "a session id of 129 bytes",
                "{\"type\":\"pause\",\"session\":\"\(String(repeating: "s", count: 129))\",\"ts\":1}", .invalidSession,
                key: nil),
            entry(
                "a session id of 43 euro signs (129 bytes)",
                "{\"type\":\"pause\",\"session\":\"\(String(repeating: "€", count: 43))\",\"ts\":1}", .invalidSession,
                key: nil),
            entry("key disagrees", #"{"type":"pause","session":"hostile","ts":1}"#, .keyMismatch, key: "someone-else"),
            entry("unit for the other quantity", sample(#""quantity":"heart_rate","value":120,"unit":"W""#), .badUnit),
            entry("unit in the wrong case", sample(#""quantity":"cycling_power","value":120,"unit":"w""#), .badUnit),
            entry("1e400", sample(#""quantity":"heart_rate","value":1e400"#), .outOfRange),
            entry("-1e400", sample(#""quantity":"cycling_power","value":-1e400"#), .outOfRange),
            entry("heart rate 0", sample(#""quantity":"heart_rate","value":0"#), .outOfRange),
            entry("heart rate 301", sample(#""quantity":"heart_rate","value":301"#), .outOfRange),
            entry("power 5001", sample(#""quantity":"cycling_power","value":5001"#), .outOfRange),
            entry("negative power", sample(#""quantity":"cycling_power","value":-1"#), .outOfRange),
            entry("ts negative", #"{"type":"pause","session":"hostile","ts":-1}"#, .outOfRange),
            entry("ts past 2^53", #"{"type":"pause","session":"hostile","ts":9007199254740993}"#, .outOfRange),
            entry(
                "series of 1001",
                "{\"type\":\"sample_series\",\"session\":\"hostile\",\"ts\":1,\"quantity\":\"heart_rate\",\"interval_ms\":1000,\"values\":[\(Array(repeating: "120", count: 1001).joined(separator: ","))]}",
                .outOfRange),
            entry(
                "series empty",
                #"{"type":"sample_series","session":"hostile","ts":1,"quantity":"heart_rate","interval_ms":1000,"values":[]}"#,
                .outOfRange),
            entry(
                "series with one bad value",
                #"{"type":"sample_series","session":"hostile","ts":1,"quantity":"heart_rate","interval_ms":1000,"values":[120,400]}"#,
                .outOfRange),
        ]
        return entries
    }

    /// `session_start` events with zones that break section 1's rules: dead-lettered as
    /// `invalid_zones` while the session starts with the next source.
    public static func invalidZones(session: String) -> [(String, [UInt8])] {
        [
            #"{"heart_rate":{"boundaries":[100]}}"#,
            #"{"heart_rate":{"boundaries":[1,2,3,4,5,6,7,8,9]}}"#,
            #"{"heart_rate":{"boundaries":[150,100]}}"#,
            #"{"heart_rate":{"boundaries":[0,100]}}"#,
            #"{"heart_rate":{"boundaries":["a","b"]}}"#,
            #"{"speed":{"boundaries":[1,2]}}"#,
            #"{"heart_rate":{"boundaries":[100,150],"unit":"W"}}"#,
            #""zones""#,
        ].map { zones in
            (
                "invalid zones \(zones)",
                Array("{\"type\":\"session_start\",\"session\":\"\(session)\",\"ts\":1000,\"zones\":\(zones)}".utf8)
            )
        }
    }
}
