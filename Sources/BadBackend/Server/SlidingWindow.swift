/// The last ``capacity`` elements appended, oldest first, for ``RequestLog``: each append is
/// amortized O(1) however long the window is.
///
/// Elements that fall out are not moved out one by one (a `removeFirst` on every append moves
/// the whole window); they are skipped, and dropped in one batch once as many as the window
/// holds have fallen out, so the storage is at most twice the window.
struct SlidingWindow<Element> {
    /// The most elements kept: at least 1.
    let capacity: Int
    private var storage: [Element] = []
    /// Where the window starts in `storage`: the elements before it have fallen out.
    private var start = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
    }

    /// The elements kept, oldest first.
    var elements: ArraySlice<Element> { storage[start...] }

    /// How many elements are kept.
    var count: Int { storage.count - start }

    /// Appends `element`; returns the oldest one when it falls out to make room.
    @discardableResult
    mutating func append(_ element: Element) -> Element? {
        storage.append(element)
        guard storage.count - start > capacity else { return nil }
        let fallen = storage[start]
        start += 1
        if start >= capacity {
            storage.removeFirst(start)
            start = 0
        }
        return fallen
    }
}
