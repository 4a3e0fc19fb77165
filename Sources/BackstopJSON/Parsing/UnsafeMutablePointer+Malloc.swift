import Foundation

extension UnsafeMutablePointer {
    /// Uninitialized memory for `capacity` values from `malloc`, which the caller releases
    /// with `free`.
    ///
    /// `allocate(capacity:)` asks the runtime for memory of a stated alignment, which on Linux is
    /// `posix_memalign`: three times the instructions of `malloc`, paid by every decode of a
    /// small object for its scratch tables. `malloc`'s alignment (16 bytes) suits every type
    /// the decoder keeps this way.
    static func mallocated(capacity: Int) -> UnsafeMutablePointer {
        guard let memory = malloc(Swift.max(1, capacity) * MemoryLayout<Pointee>.stride) else {
            // Memory exhaustion, not bad input: Swift's own allocations stop the same way.
            preconditionFailure("BackstopJSON: out of memory for \(capacity) values of \(Pointee.self)")
        }
        return memory.bindMemory(to: Pointee.self, capacity: capacity)
    }
}
