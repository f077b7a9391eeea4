import Foundation
import Testing
import ZoneCodecs
import ZoneEngine

/// Each dead-letter reason of docs/reference/contract.md that the decoder decides, and their
/// precedence when a record has several defects.
@Suite struct DeadLetterReasonTests {
    static let cases: [(String, String?, DeadLetterReason?)] = [
        // (value, key, expected reason; nil = accepted)
        (#"{"type":"sample","session":"s","ts":1,"quantity":"heart_rate","value":100}"#, "s", nil),
        (#"{"type":"sample","session":"s","ts":1,"quantity":"heart_rate","value":100}"#, nil, nil),
        (#"{"type":"sample","session":"s","ts":1,"#, "s", .malformedJSON),
        (#"[1,2]"#, "s", .malformedJSON),
        (#""text""#, "s", .malformedJSON),
        (#"{"type":"sample"} x"#, "s", .malformedJSON),
        ("", "s", .malformedJSON),
        (#"{"type":"sample","session":"s","ts":1,"quantity":"heart_rate"}"#, "s", .missingField),
        (#"{"type":"sample","session":"s","ts":1,"quantity":"heart_rate","value":null}"#, "s", .missingField),
        (#"{"session":"s","ts":1}"#, "s", .missingField),
        (#"{"type":"bogus","ts":1}"#, "s", .missingField),
        (#"{"type":"sample","session":5,"ts":1,"quantity":"heart_rate"}"#, "s", .missingField),
        (#"{"type":"sample_series","session":"s","ts":1,"quantity":"heart_rate","values":[1]}"#, "s", .missingField),
        (#"{"type":"activity_start","session":"s","ts":1}"#, "s", .missingField),
        (#"{"type":"sample","session":5,"ts":1,"quantity":"heart_rate","value":1}"#, "s", .badType),
        (#"{"type":"sample","session":"s","ts":1000.0,"quantity":"heart_rate","value":1}"#, "s", .badType),
        (#"{"type":"sample","session":"s","ts":1e3,"quantity":"heart_rate","value":1}"#, "s", .badType),
        (#"{"type":"sample","session":"s","ts":"1","quantity":"heart_rate","value":1}"#, "s", .badType),
        (#"{"type":"sample","session":"s","ts":1,"quantity":"speed","value":1}"#, "s", .badType),
        (#"{"type":"sample","session":"s","ts":1,"quantity":"heart_rate","value":"1"}"#, "s", .badType),
        (#"{"type":"sample","session":"s","ts":1,"quantity":"heart_rate","value":1,"unit":5}"#, "s", .badType),
        (#"{"type":"sample","session":"s","ts":1,"quantity":"heart_rate","value":1,"person":[]}"#, "s", .badType),
        (#"{"type":7,"session":"s","ts":1}"#, "s", .badType),
        (
            #"{"type":"sample_series","session":"s","ts":1,"quantity":"heart_rate","interval_ms":1.5,"values":[1]}"#,
            "s", .badType
        ),
        (
            #"{"type":"sample_series","session":"s","ts":1,"quantity":"heart_rate","interval_ms":1,"values":[1,"2"]}"#,
            "s", .badType
        ),
        (
            #"{"type":"sample_series","session":"s","ts":1,"quantity":"heart_rate","interval_ms":1,"values":{}}"#, "s",
            .badType
        ),
        (#"{"type":"session_start","session":"s","ts":1,"activity":3}"#, "s", .badType),
        (#"{"type":"bogus","session":"s","ts":1}"#, "s", .unknownType),
        (#"{"type":"bogus","session":"","ts":1}"#, "s", .unknownType),
        (#"{"type":"pause","session":"","ts":1}"#, "s", .invalidSession),
        ("{\"type\":\"pause\",\"session\":\"\(String(repeating: "x", count: 129))\",\"ts\":1}", nil, .invalidSession),
        ("{\"type\":\"pause\",\"session\":\"\(String(repeating: "é", count: 64))\",\"ts\":1}", nil, nil),
        ("{\"type\":\"pause\",\"session\":\"\(String(repeating: "é", count: 65))\",\"ts\":1}", nil, .invalidSession),
        (#"{"type":"pause","session":"s","ts":1}"#, "other", .keyMismatch),
        (#"{"type":"pause","session":"s","ts":-1}"#, "other", .keyMismatch),
        (#"{"type":"sample","session":"s","ts":1,"quantity":"heart_rate","value":100,"unit":"W"}"#, "s", .badUnit),
        (#"{"type":"sample","session":"s","ts":1,"quantity":"heart_rate","value":100,"unit":"BPM"}"#, "s", .badUnit),
        (#"{"type":"sample","session":"s","ts":-1,"quantity":"heart_rate","value":100,"unit":"W"}"#, "s", .badUnit),
        (#"{"type":"sample","session":"s","ts":1,"quantity":"cycling_power","value":5,"unit":"kW"}"#, "s", nil),
        (
            #"{"type":"sample","session":"s","ts":1,"quantity":"cycling_power","value":5.1,"unit":"kW"}"#, "s",
            .outOfRange
        ),
        (#"{"type":"sample","session":"s","ts":1,"quantity":"heart_rate","value":320}"#, "s", .outOfRange),
        (#"{"type":"sample","session":"s","ts":1,"quantity":"heart_rate","value":0}"#, "s", .outOfRange),
        (
            #"{"type":"sample","session":"s","ts":1,"quantity":"heart_rate","value":5.01,"unit":"count/s"}"#, "s",
            .outOfRange
        ),
        (#"{"type":"sample","session":"s","ts":1,"quantity":"cycling_power","value":0}"#, "s", nil),
        (#"{"type":"sample","session":"s","ts":1,"quantity":"cycling_power","value":-0.5}"#, "s", .outOfRange),
        (#"{"type":"sample","session":"s","ts":1,"quantity":"heart_rate","value":1e400}"#, "s", .outOfRange),
        (
            #"{"type":"sample","session":"s","ts":1,"quantity":"heart_rate","value":123456789012345678901234567890}"#,
            "s", .outOfRange
        ),
        (#"{"type":"pause","session":"s","ts":-1}"#, "s", .outOfRange),
        (#"{"type":"pause","session":"s","ts":9007199254740992}"#, "s", nil),
        (#"{"type":"pause","session":"s","ts":9007199254740993}"#, "s", .outOfRange),
        (#"{"type":"pause","session":"s","ts":99999999999999999999999}"#, "s", .outOfRange),
        (
            #"{"type":"sample_series","session":"s","ts":1,"quantity":"heart_rate","interval_ms":0,"values":[100]}"#,
            "s", .outOfRange
        ),
        (
            #"{"type":"sample_series","session":"s","ts":1,"quantity":"heart_rate","interval_ms":1,"values":[]}"#, "s",
            .outOfRange
        ),
        (
            #"{"type":"sample_series","session":"s","ts":1,"quantity":"heart_rate","interval_ms":1,"values":[100,400]}"#,
            "s", .outOfRange
        ),
        (
            #"{"type":"sample_series","session":"s","ts":9007199254740990,"quantity":"heart_rate","interval_ms":2,"values":[100,100,100]}"#,
            "s", .outOfRange
        ),
        (
            #"{"type":"sample","session":"s","ts":1,"quantity":"heart_rate","value":100,"extra":{"deep":[1,2]}}"#, "s",
            nil
        ),
        (
            #"{"type":"sample","session":"s","ts":1,"quantity":"heart_rate","value":100,"unit":null,"person":null}"#,
            "s", nil
        ),
        (#"{"type":"session_start","session":"s","ts":1,"zones":[1]}"#, "s", nil),
        (#"{"type":"session_start","session":"s","ts":1,"class":"studio-3/spin-0700"}"#, "s", nil),
        (#"{"type":"session_start","session":"s","ts":1,"class":null}"#, "s", nil),
        (#"{"type":"session_start","session":"s","ts":1,"class":7}"#, "s", .badType),
        (#"{"type":"session_start","session":"s","ts":1,"class":""}"#, "s", .outOfRange),
        (
            "{\"type\":\"session_start\",\"session\":\"s\",\"ts\":1,\"class\":\"\(String(repeating: "é", count: 32))\"}",
            "s", nil
        ),
        (
            "{\"type\":\"session_start\",\"session\":\"s\",\"ts\":1,\"class\":\"\(String(repeating: "x", count: 65))\"}",
            "s", .outOfRange
        ),
        // On other types `class` is an unknown field, ignored.
        (#"{"type":"pause","session":"s","ts":1,"class":""}"#, "s", nil),
        (#"{"type":"sample","session":"s","ts":1,"quantity":"heart_rate","value":100,"class":5}"#, "s", nil),
    ]

    @Test func reasonsAndTheirOrder() {
        var decoder = WorkoutEventDecoder()
        for (value, key, expected) in Self.cases {
            let outcome = decoder.decode(value: Array(value.utf8), key: key.map { Array($0.utf8) })
            switch outcome {
            case .success: #expect(expected == nil, "\(value) was accepted, wanted \(String(describing: expected))")
            case .failure(let rejection):
                #expect(rejection.reason == expected, "\(value): got \(rejection.reason) (\(rejection.detail))")
                #expect(!rejection.detail.isEmpty)
            }
        }
    }

    @Test func seriesFullOfValuesCanHoldAThousand() {
        var decoder = WorkoutEventDecoder()
        let values = Array(repeating: "100", count: 1000).joined(separator: ",")
        let series =
            #"{"type":"sample_series","session":"s","ts":1,"quantity":"heart_rate","interval_ms":1000,"values":[VALUES]}"#
        #expect(
            (try? decoder.decode(value: Array(series.replacingOccurrences(of: "VALUES", with: values).utf8), key: nil)
                .get()) != nil)
        let tooMany = values + ",100"
        guard
            case .failure(let rejection) = decoder.decode(
                value: Array(series.replacingOccurrences(of: "VALUES", with: tooMany).utf8), key: nil)
        else {
            Issue.record("1001 values accepted")
            return
        }
        #expect(rejection.reason == .outOfRange)
    }

    @Test func tooLargeComesFirst() {
        var decoder = WorkoutEventDecoder(maxMessageBytes: 10)
        guard case .failure(let rejection) = decoder.decode(value: Array("not json at all".utf8), key: nil) else {
            Issue.record("accepted")
            return
        }
        #expect(rejection.reason == .tooLarge)
    }

    @Test func valuesAreConvertedToTheCanonicalUnit() throws {
        var decoder = WorkoutEventDecoder()
        let event = try decoder.decode(
            value: Array(
                #"{"type":"sample","session":"s","ts":5,"quantity":"heart_rate","value":2,"unit":"count/s","person":"p"}"#
                    .utf8),
            key: nil
        ).get()
        #expect(event.body == .sample(.heartRate, value: 120, person: "p"))
        #expect(event.timestamp == 5)
    }

    /// Duplicates compare values after unit conversion: 2 count/s at a time equal to 120 bpm.
    @Test func duplicateIsJudgedAfterUnitConversion() throws {
        var decoder = WorkoutEventDecoder()
        var store = SessionStore()
        var outputs = EngineOutputs()
        for text in [
            #"{"type":"sample","session":"s","ts":1000,"quantity":"heart_rate","value":120,"unit":"bpm"}"#,
            #"{"type":"sample","session":"s","ts":1000,"quantity":"heart_rate","value":2,"unit":"count/s"}"#,
            #"{"type":"sample","session":"s","ts":1000,"quantity":"heart_rate","value":2.5,"unit":"count/s"}"#,
            #"{"type":"session_end","session":"s","ts":2000}"#,
        ] {
            let event = try decoder.decode(value: Array(text.utf8), key: nil).get()
            store.handle(event, wallMs: 0, profiles: [:], outputs: &outputs)
        }
        let summary = try #require(outputs.finished.first)
        #expect(summary.duplicateSamples == 1)
        #expect(summary.lateSamples == 1)
    }

    @Test func invalidZonesAreReportedButTheStartStillDecodes() throws {
        var decoder = WorkoutEventDecoder()
        let text =
            #"{"type":"session_start","session":"s","ts":1,"zones":{"heart_rate":{"boundaries":[100,90]},"cycling_power":{"boundaries":[100,200],"unit":"W"},"speed":null}}"#
        let event = try decoder.decode(value: Array(text.utf8), key: nil).get()
        guard case .sessionStart(let request) = event.body else {
            Issue.record("not a start")
            return
        }
        #expect(request.zones.heartRate == nil)
        #expect(request.zones.cyclingPower?.boundaries.values == [100, 200])
        #expect(request.zonesGiven == PerQuantity(heartRate: true, cyclingPower: true))
        #expect(request.zonesDefect != nil)
        let nullEntry = #"{"type":"session_start","session":"s","ts":1,"zones":{"heart_rate":null}}"#
        guard case .sessionStart(let clean) = try decoder.decode(value: Array(nullEntry.utf8), key: nil).get().body
        else { return }
        #expect(clean.zonesDefect == nil)
        #expect(clean.zonesGiven.heartRate == false)
    }

    @Test func profilesIgnoreInvalidFields() throws {
        var decoder = ProfileDecoder()
        let text =
            #"{"person":"p","age":"old","max_hr":190,"ftp":-5,"preferred":{"heart_rate":{"boundaries":[1]},"cycling_power":{"boundaries":[0.1,0.2],"unit":"kW"}}}"#
        let outcome = Array(text.utf8).withUnsafeBytes { decoder.decode(value: $0, key: "p") }
        guard case .success(.upsert(let profile)) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(profile.age == nil)
        #expect(profile.maximumHeartRate == 190)
        #expect(profile.functionalThresholdPower == nil)
        #expect(profile.preferredZones.heartRate == nil)
        #expect(profile.preferredZones.cyclingPower?.boundaries.values == [100, 200])
        #expect(profile.preferredZones.cyclingPower?.source == .user)
        #expect(decoder.decode(value: nil, key: "p") == .success(.delete(person: "p")))
    }

    @Test func profileNameWeightAndSexAreReadAndInvalidOnesIgnored() throws {
        func decoded(_ text: String) -> PersonProfile? {
            var decoder = ProfileDecoder()
            let outcome = Array(text.utf8).withUnsafeBytes { decoder.decode(value: $0, key: "p") }
            guard case .success(.upsert(let profile)) = outcome else { return nil }
            return profile
        }
        let valid = try #require(decoded(#"{"person":"p","name":"Lena K.","weight_kg":62,"sex":"female"}"#))
        #expect(valid.name == "Lena K.")
        #expect(valid.weightKg == 62)
        #expect(valid.sex == .female)
        let edges = try #require(decoded(#"{"person":"p","weight_kg":20,"sex":"male"}"#))
        #expect(edges.weightKg == 20)
        #expect(edges.sex == .male)
        let longName = String(repeating: "n", count: 65)
        let invalid = try #require(decoded("{\"name\":\"\(longName)\",\"weight_kg\":400.5,\"sex\":\"Female\"}"))
        #expect(invalid.name == nil)
        #expect(invalid.weightKg == nil)
        #expect(invalid.sex == nil)
        let wrongTypes = try #require(decoded(#"{"name":"","weight_kg":"60","sex":1}"#))
        #expect(wrongTypes.name == nil && wrongTypes.weightKg == nil && wrongTypes.sex == nil)
        #expect(decoded(#"{"weight_kg":19.9}"#)?.weightKg == nil)
    }

    @Test func sessionStartCarriesItsClass() throws {
        var decoder = WorkoutEventDecoder()
        let text = #"{"type":"session_start","session":"s","ts":1,"class":"studio-3/spin-0700"}"#
        let outcome = decoder.decode(value: Array(text.utf8), key: nil)
        guard case .success(let event) = outcome, case .sessionStart(let request) = event.body else {
            Issue.record("\(outcome)")
            return
        }
        #expect(request.sessionClass == "studio-3/spin-0700")
    }
}
