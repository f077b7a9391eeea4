import Testing
import ZoneEngine

@Suite struct ZoneConfigurationTests {
    func hr(_ boundaries: [Double], unit: String? = nil) throws(ZoneConfigurationError) -> ZoneConfiguration {
        try ZoneConfiguration.validated(quantity: .heartRate, source: .app, boundaries: boundaries, unit: unit)
    }

    @Test func valueOnABoundaryBelongsToTheUpperZone() throws {
        let zones = try hr([100, 120, 140])
        #expect(zones.zoneCount == 4)
        #expect(zones.zoneIndex(of: 99.999) == 0)
        #expect(zones.zoneIndex(of: 100) == 1)
        #expect(zones.zoneIndex(of: 119.9) == 1)
        #expect(zones.zoneIndex(of: 120) == 2)
        #expect(zones.zoneIndex(of: 140) == 3)
        #expect(zones.zoneIndex(of: 300) == 3)
        #expect(zones.zoneIndex(of: 0.1) == 0)
    }

    @Test func zoneBoundsAreOpenAtTheEnds() throws {
        let zones = try hr([100, 120])
        #expect(zones.lowerBound(ofZone: 0) == nil)
        #expect(zones.upperBound(ofZone: 0) == 100)
        #expect(zones.lowerBound(ofZone: 1) == 100)
        #expect(zones.upperBound(ofZone: 1) == 120)
        #expect(zones.lowerBound(ofZone: 2) == 120)
        #expect(zones.upperBound(ofZone: 2) == nil)
    }

    @Test func twoToEightBoundariesMakeThreeToNineZones() throws {
        #expect(throws: ZoneConfigurationError.wrongCount(1)) { try hr([100]) }
        #expect(throws: ZoneConfigurationError.wrongCount(0)) { try hr([]) }
        #expect(try hr([1, 2]).zoneCount == 3)
        #expect(try hr([1, 2, 3, 4, 5, 6, 7, 8]).zoneCount == 9)
        #expect(throws: ZoneConfigurationError.wrongCount(9)) { try hr([1, 2, 3, 4, 5, 6, 7, 8, 9]) }
    }

    @Test func boundariesMustBeFinitePositiveAndStrictlyIncreasing() {
        #expect(throws: ZoneConfigurationError.notPositive) { try hr([0, 100]) }
        #expect(throws: ZoneConfigurationError.notPositive) { try hr([-5, 100]) }
        #expect(throws: ZoneConfigurationError.notIncreasing) { try hr([100, 100]) }
        #expect(throws: ZoneConfigurationError.notIncreasing) { try hr([120, 100, 140]) }
        #expect(throws: ZoneConfigurationError.notFinite) { try hr([100, .infinity]) }
        #expect(throws: ZoneConfigurationError.notFinite) { try hr([.nan, 100]) }
    }

    @Test func otherUnitsAreConvertedAndReportedInTheCanonicalUnit() throws {
        let perSecond = try hr([2, 2.5, 3], unit: "count/s")
        #expect(perSecond.boundaries.values == [120, 150, 180])
        #expect(perSecond.unit == "count/min")
        #expect(try hr([100, 150], unit: "bpm").boundaries.values == [100, 150])
        let kilowatts = try ZoneConfiguration.validated(
            quantity: .cyclingPower, source: .app, boundaries: [0.1, 0.2], unit: "kW")
        #expect(kilowatts.boundaries.values == [100, 200])
        #expect(kilowatts.unit == "W")
    }

    @Test func unitsAreCaseSensitiveAndPerQuantity() {
        #expect(throws: ZoneConfigurationError.badUnit("BPM")) { try hr([100, 150], unit: "BPM") }
        #expect(throws: ZoneConfigurationError.badUnit("W")) { try hr([100, 150], unit: "W") }
        #expect(throws: ZoneConfigurationError.badUnit("bpm")) {
            try ZoneConfiguration.validated(quantity: .cyclingPower, source: .app, boundaries: [1, 2], unit: "bpm")
        }
    }

    @Test func conversionThatOverflowsIsNotFinite() {
        #expect(throws: ZoneConfigurationError.notFinite) {
            try ZoneConfiguration.validated(
                quantity: .cyclingPower, source: .app, boundaries: [1, 1.7e308], unit: "kW")
        }
    }

    @Test func readingRanges() {
        #expect(!Quantity.heartRate.isValidReading(0))
        #expect(Quantity.heartRate.isValidReading(0.001))
        #expect(Quantity.heartRate.isValidReading(300))
        #expect(!Quantity.heartRate.isValidReading(300.0001))
        #expect(Quantity.cyclingPower.isValidReading(0))
        #expect(Quantity.cyclingPower.isValidReading(5000))
        #expect(!Quantity.cyclingPower.isValidReading(5000.5))
        #expect(!Quantity.cyclingPower.isValidReading(-1))
        #expect(!Quantity.heartRate.isValidReading(.infinity))
        #expect(!Quantity.cyclingPower.isValidReading(.nan))
    }
}
