/// Why a benchmark run could not finish, in words for the person who started it.
public struct BenchError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
