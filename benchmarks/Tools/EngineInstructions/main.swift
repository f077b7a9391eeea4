import EngineWorkload
import Foundation
import ZoneEngine

// Runs one engine workload for a number of samples, for valgrind's callgrind to count its
// instructions (reproducible where wall-clock time is not, as on a shared machine):
//   EngineInstructions KIND SAMPLES
// KIND is a workload's position in StoreWorkload.kinds (0-5). Instructions per sample are the
// difference between two runs (for example 200,000 and 400,000 samples) over the difference
// in samples, which takes the setup out.
let arguments = CommandLine.arguments
guard arguments.count == 3, let kind = Int(arguments[1]), StoreWorkload.kinds.indices.contains(kind),
    let samples = Int(arguments[2]), samples > 0
else {
    print("usage: EngineInstructions KIND SAMPLES (KIND 0-\(StoreWorkload.kinds.count - 1))")
    for (index, kind) in StoreWorkload.kinds.enumerated() { print("  \(index): \(kind.name)") }
    exit(64)
}
let chosen = StoreWorkload.kinds[kind]
var workload = StoreWorkload(quantity: chosen.quantity, planned: chosen.planned, drifting: chosen.drifting)
for index in 0..<samples { workload.apply(sample: index) }
print(chosen.name, samples, "samples", workload.reads & 1)
