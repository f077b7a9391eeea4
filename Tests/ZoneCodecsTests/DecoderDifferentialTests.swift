import Foundation
import Testing
import ZoneEngine
import ZoneSimulation
import ZoneSupport
import ZoneTestSupport

@testable import ZoneCodecs

/// Proves the production decoder equal to jansson's DOM on every input: the same event or
/// the same rejection (reason and detail). The one planned difference: numbers too large for
/// Int64 or a double, which jansson refuses as a whole document and the contract calls out of range.
@Suite struct DecoderDifferentialTests {
    static let seeds: [String] = [
        #"{"type":"sample","session":"morning-run","ts":1717200000000,"quantity":"heart_rate","value":112}"#,
        #"{"type":"sample","session":"s","ts":0,"quantity":"cycling_power","value":0.25,"unit":"kW","person":"p"}"#,
        #"{"type":"sample","session":"s","ts":5,"quantity":"heart_rate","value":-0.0}"#,
        #"{"type":"sample","session":"s","ts":5,"quantity":"heart_rate","value":1E2}"#,
        #"{"type":"sample","session":"s","ts":5,"quantity":"heart_rate","value":1e-400}"#,
        #"{"type":"sample","session":"s","ts":5,"quantity":"heart_rate","value":123.456789012345678}"#,
        #"{"type":"sample","session":"s","ts":5,"quantity":"heart_rate","value":0.1}"#,
        #"{"type":"sample","session":"s","ts":5,"quantity":"heart_rate","value":99.99999999999999999}"#,
        #"{"type":"sample","session":"s","ts":5,"quantity":"cycling_power","value":1.7976931348623157e308}"#,
        #"{"type":"sample","session":"s\u00e9\n\"\\\/\b\f\r\t","ts":5,"quantity":"heart_rate","value":100}"#,
        #"{"type":"sample","session":"\ud83d\ude00","ts":5,"quantity":"heart_rate","value":100}"#,
        #"{"type":"sample","session":"😀 ok","ts":5,"quantity":"heart_rate","value":100}"#,
        #"{"type":"sample","session":"a","session":"b","ts":5,"quantity":"heart_rate","value":100}"#,
        #"{"type":"samp\u006ce","session":"s","ts":5,"quantity":"heart\u005frate","value":100,"unit":"bp\u006d"}"#,
        " \n\t\r{ \"type\" : \"pause\" , \"session\" : \"s\" , \"ts\" : 7 } \n",
        #"{"type":"sample_series","session":"s","ts":0,"quantity":"heart_rate","unit":"bpm","interval_ms":2000,"values":[108,112,116.5,121,125]}"#,
        #"{"type":"session_start","session":"s","ts":1,"person":"lena","activity":"running","zones":{"heart_rate":{"boundaries":[100,125,145,160,175],"unit":"count/min"}}}"#,
        #"{"type":"session_start","session":"s","ts":1,"zones":{"heart_rate":{"boundaries":[2,3],"unit":"count/s"},"cycling_power":{"boundaries":[1,0.5]},"x":{}}}"#,
        #"{"type":"session_start","session":"s","ts":1,"zones":"none"}"#,
        #"{"type":"session_end","session":"s","ts":9}"#,
        #"{"type":"resume","session":"s","ts":9,"ignored":[true,false,null,{"a":[]}]}"#,
        #"{"type":"activity_start","session":"s","ts":9,"activity":"cycling"}"#,
        #"{"type":"activity_end","session":"s","ts":9}"#,
        #"{"type":"what","session":"s","ts":9}"#,
        #"{"type":"sample","session":"s","ts":1.0,"quantity":"heart_rate","value":100}"#,
        #"{}"#, #"[]"#, #"[{}]"#, #"{"a":}"#, #"{"a" 1}"#, #"{"a":1,}"#, #"[1,]"#, #"{"a":01}"#, #"{"a":1.}"#,
        #"{"a":.5}"#, #"{"a":1e}"#, #"{"a":+1}"#, #"{"a":-}"#, #"{"a":tru}"#, #"{"a":nul}"#, #"{"a":"\x"}"#,
        #"{"a":"\u12"}"#, #"{"a":"\u0000"}"#, #"{"a\u0000":1}"#, #"{"a":"\ud800"}"#, #"{"a":"\udc00"}"#,
        #"{"a":"\ud800\u0041"}"#, #"{"a":NaN}"#, #"{"a":Infinity}"#, #"{"a":-Infinity}"#, #"{'a':1}"#,
        #"{"a":1}{}"#, #"{"a":1} 2"#, "{\"a\":\"tab\there\"}", "{\"a\":1}\u{0}",
    ]

    static func deepNesting(_ depth: Int) -> String {
        #"{"type":"pause","session":"s","ts":1,"x":"# + String(repeating: "[", count: depth - 1)
            + String(repeating: "]", count: depth - 1) + "}"
    }

    /// Raw byte inputs that a String literal cannot hold: invalid UTF-8 of every kind.
    static let rawInputs: [[UInt8]] = {
        let prefix = Array(#"{"type":"pause","session":""#.utf8)
        let suffix = Array(#"","ts":1}"#.utf8)
        let sequences: [[UInt8]] = [
            [0xFF], [0xC0, 0x80], [0xC1, 0xBF], [0xC2], [0xE0, 0x80, 0x80], [0xE0, 0xA0], [0xED, 0xA0, 0x80],
            [0xF0, 0x80, 0x80, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0x80], [0xC3, 0xA9],
            [0xE2, 0x82, 0xAC], [0xF0, 0x9F, 0x98, 0x80], [0xEF, 0xBF, 0xBF], [0x7F], [0x1F],
        ]
        // NUL bytes after numbers and literals, where jansson drops one (found by the fuzzer).
        let nulCases = [
            #"{"type":"pause","session":"s","ts":1"# + "\0}", #"{"type":"pause","session":"s","ts":12"# + "\0 }",
            #"{"type":"pause","session":"s","ts":1"# + "\0\0}", #"{"type":"pause","session":"s","ts":1.5"# + "\0}",
            #"{"type":"pause","session":"s","ts":1,"x":true"# + "\0}",
            #"{"type":"pause","session":"s","ts":1,"x":null"# + "\0,\"y\":1}",
            #"{"type":"pause","session":"s"# + "\0\",\"ts\":1}", "[[2\0]]",
            #"{"type":"pause","session":"s","ts":1e5"# + "\0}",
            // Duplicate keys keep the first one's place (the first defect reported follows it).
            #"{"type":"session_start","session":"s","ts":1,"zones":{"ts":1,"speed":2,"ts":3}}"#,
        ].map { Array($0.utf8) }
        return sequences.map { prefix + $0 + suffix } + nulCases
    }()

    struct Tally {
        var agreed = 0
        var overflowCases = 0
    }

    static func compare(_ value: [UInt8], key: [UInt8]?, tally: inout Tally) {
        switch DecoderAgreement.check(value, key: key) {
        case .agreed: tally.agreed += 1
        case .numericOverflow: tally.overflowCases += 1
        case .differ(let difference): Issue.record("differ on \(String(decoding: value, as: UTF8.self)): \(difference)")
        }
    }

    @Test func corpusAgrees() throws {
        var tally = Tally()
        var inputs = Self.seeds.map { Array($0.utf8) } + Self.rawInputs
        inputs += [Self.deepNesting(2048), Self.deepNesting(2049)].map { Array($0.utf8) }
        for example in try ContractExample.all() {
            for index in example.events.indices { inputs.append(try example.valueBytes(at: index)) }
        }
        for input in inputs {
            Self.compare(input, key: nil, tally: &tally)
            Self.compare(input, key: Array("s".utf8), tally: &tally)
        }
        #expect(tally.agreed >= inputs.count * 2 - 10)
    }

    @Test func everyTruncationAgrees() {
        var tally = Tally()
        for seed in Self.seeds.prefix(20) {
            let bytes = Array(seed.utf8)
            for length in 0..<bytes.count { Self.compare(Array(bytes[0..<length]), key: nil, tally: &tally) }
        }
        #expect(tally.agreed > 1000)
    }

    @Test func randomByteMutationsAgree() {
        var random = SplitMix64(seed: 20_261_121)
        var tally = Tally()
        let alphabet = Array(#"{}[]":,.-+eE0123456789\u"tfn aZé"#.utf8) + [0x00, 0x1F, 0x80, 0xC3, 0xFF, 0xED]
        for round in 0..<20_000 {
            var bytes = Array(Self.seeds[round % Self.seeds.count].utf8)
            for _ in 0...(random.next() % 3) {
                guard !bytes.isEmpty else { break }
                let position = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 3 {
                case 0: bytes[position] = alphabet[Int(random.next() % UInt64(alphabet.count))]
                case 1: bytes.remove(at: position)
                default: bytes.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: position)
                }
            }
            Self.compare(bytes, key: random.next() % 2 == 0 ? nil : Array("s".utf8), tally: &tally)
        }
        #expect(tally.agreed + tally.overflowCases == 20_000)
    }
}
