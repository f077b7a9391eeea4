import Foundation
import ZoneCodecs
import ZoneEngine

// Decodes the gym traffic's samples, as a worker does, for valgrind's callgrind to count the
// decoder's instructions (reproducible where wall-clock time is not, as on a shared machine):
//   DecodeInstructions SAMPLES
// Heart-rate and power samples in the load generator's form, over 1,200 sessions (a gym's
// worth, so the session-id cache sees what a worker sees). Instructions per sample are the
// difference between two runs (for example 200,000 and 400,000 samples) over the difference
// in samples, which takes the setup out.
let arguments = CommandLine.arguments
guard arguments.count == 2, let samples = Int(arguments[1]), samples > 0 else {
    print("usage: DecodeInstructions SAMPLES")
    exit(64)
}
/// The samples decoded, over records made once: their bytes lent to the decoder as a
/// worker lends librdkafka's.
func decodeSamples(_ samples: Int) -> Int {
    let sessions = 1_200
    let records: [(key: [UInt8], value: [UInt8])] = (0..<sessions * 2).map { index in
        let session = "gym3-\(index / 2)"
        let reading =
            index % 2 == 0
            ? #""quantity":"heart_rate","value":\#(120 + index % 60).\#(index % 10)"#
            : #""quantity":"cycling_power","value":\#(150 + index % 200)"#
        let value = #"{"type":"sample",\#(reading),"session":"\#(session)","ts":\#(1_717_200_000_000 + index)}"#
        return (Array(session.utf8), Array(value.utf8))
    }
    var decoder = WorkoutEventDecoder()
    var decoded = 0
    records.withUnsafeBufferPointer { records in
        for index in 0..<samples {
            let record = records[index % records.count]
            let result = record.value.withUnsafeBytes { value in
                record.key.withUnsafeBytes { key in decoder.decode(value: value, key: key) }
            }
            if case .success = result { decoded += 1 }
        }
    }
    return decoded
}

print(samples, "samples,", decodeSamples(samples), "decoded")
