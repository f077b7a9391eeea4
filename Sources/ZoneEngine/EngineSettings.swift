/// The processor settings that change how time in zone is counted.
public struct EngineSettings: Sendable {
    /// How long one sample covers at most (`max_gap_ms`, default 10000).
    public var maxGapMs: Int64
    /// Damping against jitter on a boundary (`zone_change_min_dwell_ms`, default 0: off).
    public var zoneChangeMinDwellMs: Int64
    /// Normalization models per quantity (`normalize.<quantity>.boundaries`, source `normalized`).
    public var normalization: PerQuantity<ZoneConfiguration?> {
        get { normalizationModels?.models ?? PerQuantity(repeating: nil) }
        set {
            normalizationModels =
                Quantity.allCases.contains { newValue[$0] != nil } ? NormalizationModels(models: newValue) : nil
        }
    }
    /// The models on the heap, nil when there are none: the settings are handed to every
    /// sample's call by value, and inline the models would be 160 of 208 bytes to copy for
    /// every sample.
    private var normalizationModels: NormalizationModels?
    /// A live session with no applied event for this long finishes (`idle_timeout_s`, default 600 s).
    public var idleTimeoutMs: Int64
    /// How long a finished session's id is remembered (`finished_retention_s`, default 3600 s).
    public var finishedRetentionMs: Int64
    /// Samples up to this much out of order are sorted before they are applied
    /// (`reorder_window_ms`, default 0: applied as they arrive).
    public var reorderWindowMs: Int64
    /// Hysteresis of live target changes, and the grace after a step starts
    /// (`target_min_dwell_ms`, default 0: off).
    public var targetMinDwellMs: Int64 = 0

    /// Whether any quantity has a normalization model (then every finished workout carries
    /// `normalized_zone_groups`).
    public var normalizesAnyQuantity: Bool { normalizationModels != nil }

    /// The normalization model of `quantity`, nil without one; read per credited interval.
    @inline(__always)
    func normalizationModel(for quantity: Quantity) -> ZoneConfiguration? { normalizationModels?.models[quantity] }

    public init(
        maxGapMs: Int64 = 10_000, zoneChangeMinDwellMs: Int64 = 0,
        normalization: PerQuantity<ZoneConfiguration?> = PerQuantity(repeating: nil),
        idleTimeoutMs: Int64 = 600_000, finishedRetentionMs: Int64 = 3_600_000,
        reorderWindowMs: Int64 = 0
    ) {
        self.reorderWindowMs = reorderWindowMs
        self.maxGapMs = maxGapMs
        self.zoneChangeMinDwellMs = zoneChangeMinDwellMs
        self.idleTimeoutMs = idleTimeoutMs
        self.finishedRetentionMs = finishedRetentionMs
        self.normalization = normalization
    }
}

/// Normalization models, immutable: shared by every copy of the settings.
final class NormalizationModels: Sendable {
    let models: PerQuantity<ZoneConfiguration?>

    init(models: PerQuantity<ZoneConfiguration?>) { self.models = models }
}
