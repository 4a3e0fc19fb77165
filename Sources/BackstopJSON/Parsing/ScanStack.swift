/// The scanner's stack of open containers, in memory its caller lends (the thread's stack)
/// and moved to the heap only when a document nests deeper than that memory holds.
///
/// A Swift array here cost each decode of a small object an allocation and its release,
/// about a twentieth of the whole decode. The owner calls ``release()`` when scanning ends.
struct ScanStack<Element: BitwiseCopyable> {
    private var elements: UnsafeMutablePointer<Element>
    private var capacity: Int
    private var ownsElements: Bool
    private(set) var count = 0

    /// A stack that starts in `storage`, which must outlive it.
    init(lending storage: UnsafeMutableBufferPointer<Element>) {
        if let base = storage.baseAddress, storage.count > 0 {
            elements = base
            capacity = storage.count
            ownsElements = false
        } else {
            capacity = 16
            elements = .allocate(capacity: capacity)
            ownsElements = true
        }
    }

    var isEmpty: Bool { count == 0 }

    /// The innermost element; the stack must not be empty.
    var top: Element {
        @inline(__always) get { elements[count - 1] }
        @inline(__always) nonmutating set { elements[count - 1] = newValue }
    }

    @inline(__always)
    mutating func append(_ element: Element) {
        if count == capacity { grow() }
        (elements + count).initialize(to: element)
        count += 1
    }

    /// Removes and returns the innermost element; the stack must not be empty.
    @inline(__always)
    mutating func removeLast() -> Element {
        count -= 1
        return elements[count]
    }

    private mutating func grow() {
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        larger.initialize(from: elements, count: count)
        if ownsElements { elements.deallocate() }
        elements = larger
        capacity *= 2
        ownsElements = true
    }

    /// Frees what the stack moved to the heap; the stack must not be used afterwards.
    func release() {
        if ownsElements { elements.deallocate() }
    }
}
