/// The parsed shape of one JSON document as a flat array of nodes (a "tape"): each node
/// records its kind and byte span, containers the index just past their subtree.
///
/// The tape's storage is reused from one message to the next, so parsing allocates
/// nothing once it has grown to the largest message seen.
struct JSONTape {
    enum Kind: UInt8 {
        case null, `true`, `false`
        /// An integer token that fits in Int64.
        case integer
        /// An integer token beyond Int64 (jansson refuses these; the contract calls them out of range).
        case integerOverflow
        /// A number with a fraction or exponent.
        case real
        /// A real token whose value overflows a double, like `1e400`.
        case realOverflow
        case string
        /// A string token containing backslash escapes (decoded on demand).
        case escapedString
        case object
        case array
    }

    struct Node {
        var kind: Kind
        /// Byte span of the token; for strings, the content between the quotes.
        var start: Int32
        var end: Int32
        /// Index of the node after this one's subtree (containers); index + 1 otherwise.
        var next: Int32
        /// Number of elements (arrays) or members (objects).
        var count: Int32
        /// The parsed value of an `integer` node.
        var integer: Int64
    }

    var nodes: [Node] = []

    mutating func reset() { nodes.removeAll(keepingCapacity: true) }
}
