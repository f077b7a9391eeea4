/// One kind of output of a record, in the order produced: a row that only its owner appends to
/// and empties, read in place by index.
///
/// Noncopyable, so it needs no copy-on-write check: a record's appends and the emptying after
/// it are a capacity check and a count, where an `Array` asks at each whether its storage is
/// shared. Its storage grows to the most outputs a record has produced and is kept.
public struct OutputRow<Element>: ~Copyable {
    /// The outputs, `count` of `capacity` places initialized; a placeholder address, never
    /// read, while the capacity is 0.
    @usableFromInline var base: UnsafeMutablePointer<Element>
    private var capacity: Int
    /// How many outputs the row holds.
    public private(set) var count = 0

    /// An empty row allocates nothing: its storage comes with the first output.
    init() {
        capacity = 0
        // An alignment is at least 1, so the address is never null.
        base = UnsafeMutablePointer(bitPattern: MemoryLayout<Element>.alignment).unsafelyUnwrapped
    }

    deinit {
        base.deinitialize(count: count)
        if capacity > 0 { base.deallocate() }
    }

    @inlinable public var isEmpty: Bool { count == 0 }

    @inlinable public var indices: Range<Int> { 0..<count }

    /// The output at `index`, read in place.
    @inlinable
    public subscript(index: Int) -> Element {
        precondition(index >= 0 && index < count, "output index out of range")
        return base[index]
    }

    @inline(__always)
    mutating func append(_ element: Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        count += 1
    }

    @inline(never)
    private mutating func grow() {
        let larger = max(4, capacity * 2)
        let storage = UnsafeMutablePointer<Element>.allocate(capacity: larger)
        storage.moveInitialize(from: base, count: count)
        if capacity > 0 { base.deallocate() }
        base = storage
        capacity = larger
    }

    /// Empties the row, keeping its storage.
    @inline(__always)
    mutating func removeAll() {
        if count > 0 {
            base.deinitialize(count: count)
            count = 0
        }
    }
}

// Noncopyable, so one owner holds the storage, and moving the row hands it over whole.
extension OutputRow: @unchecked Sendable where Element: Sendable {}
