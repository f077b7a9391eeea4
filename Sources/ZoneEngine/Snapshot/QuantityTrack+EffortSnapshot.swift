/// The effort part of a track's snapshot (format version 2): the work sum, and the heart-rate
/// effort's parameters and sums when the session has them.
extension QuantityTrack {
    func writeEffort(to writer: inout SnapshotWriter) {
        writer.write(valueMs)
        writer.write(heartRateEffort != nil)
        guard let effort = heartRateEffort else { return }
        let parameters = effort.parameters
        writer.write(parameters.maximumHeartRate)
        writer.write(parameters.exactMaximum != nil)
        if let exact = parameters.exactMaximum {
            writer.write(exact.mantissa)
            writer.write(exact.places)
        }
        writer.write(parameters.calories != nil)
        if let calories = parameters.calories {
            writer.write(calories.sex == .male)
            writer.write(calories.age)
            writer.write(calories.weightKg)
        }
        for band in 0..<6 { writer.write(effort.bandMs[band]) }
        writer.write(effort.calorieMs)
        writer.write(effort.calorieValueMs)
    }

    /// A track restored from a format without effort (v1): what it did before is unknown, so its
    /// work stays NaN (NaN plus any later credit is NaN) and no figure is reported for it.
    mutating func markEffortUnknown() {
        valueMs = .nan
    }

    mutating func readEffort(from reader: inout SnapshotReader) throws(SnapshotError) {
        valueMs = try reader.readDouble()
        guard try reader.readBool() else { return }
        let maximum = try reader.readDouble()
        var exact: ScaledDecimal?
        if try reader.readBool() {
            let mantissa = try reader.readInt64()
            let places = try reader.readInt()
            // What ScaledDecimal holds: under 100,000, so no band floor's product leaves 64 bits.
            guard mantissa > 0, (0...7).contains(places), mantissa < 100_000 * ScaledDecimal.powersOfTen[places] else {
                throw SnapshotError("an effort maximum is out of range")
            }
            exact = ScaledDecimal(mantissa: mantissa, places: places)
        }
        var calories: CalorieFormula?
        if try reader.readBool() {
            let sex: PersonProfile.Sex = try reader.readBool() ? .male : .female
            let (age, weight) = (try reader.readDouble(), try reader.readDouble())
            guard age.isFinite, age > 0, (20...400).contains(weight) else {
                throw SnapshotError("a calorie formula's age or weight is out of range")
            }
            calories = CalorieFormula(sex: sex, age: age, weightKg: weight)
        }
        guard maximum.isFinite, maximum > 0 else { throw SnapshotError("an effort maximum is out of range") }
        let parameters =
            exact.map { HeartRateEffortParameters(exactMaximum: $0, calories: calories) }
            ?? HeartRateEffortParameters(approximateMaximum: maximum, calories: calories)
        var effort = HeartRateEffort(parameters: parameters)
        for band in 0..<6 { effort.bandMs[band] = try reader.readBounded() }
        effort.calorieMs = try reader.readBounded()
        effort.calorieValueMs = try reader.readDouble()
        heartRateEffort = effort
    }
}
