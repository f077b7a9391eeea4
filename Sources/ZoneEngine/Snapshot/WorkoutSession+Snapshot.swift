extension WorkoutSession {
    /// The snapshot format's version byte. Version 2 adds the class and effort, version 3 the
    /// plan and its progress, version 4 writes them compactly (each distinct step once, time in
    /// target only for the steps reached); a reader takes every earlier version too (no class,
    /// no effort, no plan: what a session had before they were counted) and refuses any other.
    public static let snapshotVersion: UInt8 = 4

    /// The whole state of the session as bytes, for the changelog topic: restoring it
    /// elsewhere and applying the same later events gives the same outputs, counters included.
    /// `format` 1 leaves out the class and the effort, for a rolling upgrade while instances
    /// that read only format 1 are still in the group (docs/how-to/upgrade.md).
    public func snapshot(format: UInt8 = snapshotVersion) -> [UInt8] {
        let withEffort = format >= 2
        let withPlan = format >= 3
        var writer = SnapshotWriter()
        writer.write(min(format, Self.snapshotVersion))
        writer.write(id)
        writer.write(person)
        writer.write(activity)
        if withEffort { writer.write(sessionClass) }
        writer.write(startTimestamp)
        writer.write(lastAppliedWallMs)
        writer.write(counters.latestTimestamp)
        writer.write(counters.lateSamples)
        writer.write(counters.duplicateSamples)
        writer.write(counters.pausedSamples)
        for quantity in Quantity.allCases {
            tracks[quantity].write(to: &writer)
            if withEffort { tracks[quantity].writeEffort(to: &writer) }
        }
        if withPlan {
            writer.write(plan != nil)
            plan?.write(to: &writer, format: format)
            for quantity in Quantity.allCases {
                // A power target not started yet (no power sample) is written as it would start.
                let target = tracks[quantity].target ?? plan.flatMap { TargetTrack.starting(quantity, of: $0) }
                target?.write(to: &writer, covered: tracks[quantity].coveredMs, format: format)
            }
        }
        writer.write(pausedMs)
        writer.write(pauses.count)
        for pause in pauses {
            writer.write(pause.start)
            writer.write(pause.end)
        }
        writer.write(activities.count)
        for activity in activities {
            writer.write(activity.name)
            writer.write(activity.start)
            writer.write(activity.end)
            for quantity in Quantity.allCases { writer.write(activity.durations[quantity]) }
        }
        writer.write(newestSampleTimestamp)
        writer.write(pendingSamples.count)
        for pending in pendingSamples {
            writer.write(UInt8(pending.quantity.rawValue))
            writer.write(pending.timestamp)
            writer.write(pending.value)
        }
        return writer.bytes
    }

    /// Reads a session back from ``snapshot()``'s bytes; its plan is `plans`' instance of it,
    /// when given.
    public init(snapshot bytes: UnsafeRawBufferPointer, plans: PlanInterner? = nil) throws(SnapshotError) {
        var reader = SnapshotReader(bytes)
        let version = try reader.readByte()
        guard (1...Self.snapshotVersion).contains(version) else {
            throw SnapshotError("snapshot version \(version) is not 1 to \(Self.snapshotVersion)")
        }
        let id = try reader.readString()
        let person = try reader.readOptionalString()
        activity = try reader.readString()
        let readClass = version >= 2 ? try reader.readOptionalString() : nil
        let sessionClass = readClass.map { plans?.interned(className: $0) ?? $0 }
        identity = SessionIdentity(session: id, person: person, sessionClass: sessionClass)
        startTimestamp = try reader.readBounded()
        lastAppliedWallMs = try reader.readBounded()
        counters = SessionCounters(latestTimestamp: try reader.readBounded())
        counters.lateSamples = try reader.readBoundedInt()
        counters.duplicateSamples = try reader.readBoundedInt()
        counters.pausedSamples = try reader.readBoundedInt()
        var heartRate = try QuantityTrack(.heartRate, reading: &reader)
        if version >= 2 { try heartRate.readEffort(from: &reader) } else { heartRate.markEffortUnknown() }
        var power = try QuantityTrack(.cyclingPower, reading: &reader)
        if version >= 2 { try power.readEffort(from: &reader) } else { power.markEffortUnknown() }
        if version >= 3, try reader.readBool() {
            let read = try WorkoutPlan.read(from: &reader, version: version)
            let plan = plans?.interned(read) ?? read
            self.plan = plan
            if TargetTrack.tracks(.heartRate, of: plan) {
                heartRate.target = try TargetTrack(
                    plan: plan, quantity: .heartRate, reading: &reader, version: version)
            }
            if TargetTrack.tracks(.cyclingPower, of: plan) {
                power.target = try TargetTrack(
                    plan: plan, quantity: .cyclingPower, reading: &reader, version: version)
                // Before its first sample the power target holds nothing: it starts again with
                // that sample, and the track stays unused meanwhile.
                if power.acceptedSamples == 0 { power.target = nil }
            }
        }
        tracks = SessionTracks(heartRate: heartRate, cyclingPower: power)
        pausedMs = try reader.readBounded()
        let pauseCount = try reader.readCount(limit: bytes.count / 16)
        for _ in 0..<pauseCount {
            pauses.append(PauseInterval(start: try reader.readBounded(), end: try reader.readBounded(allowing: [.max])))
        }
        let activityCount = try reader.readCount(limit: bytes.count / 24)
        for _ in 0..<activityCount {
            var record = ActivityRecord(
                name: try reader.readString(), start: try reader.readBounded(),
                end: try reader.readBounded(allowing: [.max]))
            for quantity in Quantity.allCases { record.durations[quantity] = try reader.readDurations() }
            activities.append(record)
        }
        newestSampleTimestamp = try reader.readBounded(allowing: [.min])
        let pendingCount = try reader.readCount(limit: bytes.count / 17)
        for _ in 0..<pendingCount {
            guard let quantity = Quantity(rawValue: Int(try reader.readByte())) else {
                throw SnapshotError("unknown quantity in a pending sample")
            }
            pendingSamples.append(
                PendingSample(
                    quantity: quantity, timestamp: try reader.readBounded(), value: try reader.readFinite()))
        }
        guard reader.isAtEnd else { throw SnapshotError("\(bytes.count - reader.position) bytes after the snapshot") }
    }
}

extension QuantityTrack {
    func write(to writer: inout SnapshotWriter) {
        writer.write(configuration != nil)
        if let configuration {
            writer.write(UInt8(ZoneSource.allCases.firstIndex(of: configuration.source)!))
            writer.write(configuration.boundaries.count)
            for value in configuration.boundaries.values { writer.write(value) }
        }
        writer.write(durations)
        writer.write(normalizedDurations)
        writer.write(coveredMs)
        writer.write(acceptedSamples)
        writer.write(lastTimestamp)
        writer.write(lastValue)
        writer.write(lastZone)
        writer.write(coverageOpen)
        writer.write(minimum)
        writer.write(maximum)
        writer.write(sum)
        writer.write(publishedZone)
        writer.write(runZone)
        writer.write(runStart)
    }

    init(_ quantity: Quantity, reading reader: inout SnapshotReader) throws(SnapshotError) {
        var configuration: ZoneConfiguration?
        if try reader.readBool() {
            let sourceIndex = Int(try reader.readByte())
            guard sourceIndex < ZoneSource.allCases.count else {
                throw SnapshotError("unknown zone source \(sourceIndex)")
            }
            let count = try reader.readCount(limit: ZoneBoundaries.maximumCount)
            var boundaries: [Double] = []
            for _ in 0..<count { boundaries.append(try reader.readDouble()) }
            do {
                configuration = try ZoneConfiguration.validated(
                    quantity: quantity, source: ZoneSource.allCases[sourceIndex], boundaries: boundaries)
            } catch {
                throw SnapshotError("zone configuration: \(error)")
            }
        }
        self.init(quantity, configuration: configuration)
        durations = try reader.readDurations()
        normalizedDurations = try reader.readDurations()
        coveredMs = try reader.readBounded()
        acceptedSamples = try reader.readBoundedInt()
        lastTimestamp = try reader.readBounded()
        lastValue = try reader.readFinite()
        let lastZone = try reader.readInt()
        coverageOpen = try reader.readBool()
        minimum = try reader.readDouble()
        maximum = try reader.readDouble()
        sum = try reader.readDouble()
        let publishedZone = try reader.readInt()
        let runZone = try reader.readInt()
        runStart = try reader.readBounded()
        let zones = -1..<(configuration?.zoneCount ?? 0)
        guard zones.contains(lastZone), zones.contains(publishedZone), zones.contains(runZone) else {
            throw SnapshotError("a zone index is outside the configuration")
        }
        self.lastZone = lastZone
        self.publishedZone = publishedZone
        self.runZone = runZone
    }
}
