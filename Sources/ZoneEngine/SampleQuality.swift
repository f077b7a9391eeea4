/// Samples a store did not credit because they were late or repeated (docs/reference/contract.md).
public struct SampleQuality: Sendable, Equatable {
    public var late = 0
    public var duplicate = 0

    public init() {}
}
