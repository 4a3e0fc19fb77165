#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Bionic)
    import Bionic
#elseif os(Windows)
    import WinSDK
#endif

/// A value shared across threads behind a lock.
///
/// The value and its lock live in one allocation. Calls make some of these per request
/// (`CallRecord`, `HedgeRace`), and `NSLock` cost two more allocations and a mutex set up and
/// torn down each time.
package struct LockedValue<Value: Sendable>: @unchecked Sendable {
    private let storage: Storage

    package init(_ value: Value) {
        storage = Storage.make(value)
    }

    package func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        storage.withUnsafeMutablePointers { value, lock in
            Self.lock(lock)
            defer { Self.unlock(lock) }
            return body(&value.pointee)
        }
    }

    #if canImport(Darwin)
        typealias Primitive = os_unfair_lock
        private static func lock(_ lock: UnsafeMutablePointer<Primitive>) { os_unfair_lock_lock(lock) }
        private static func unlock(_ lock: UnsafeMutablePointer<Primitive>) { os_unfair_lock_unlock(lock) }
    #elseif os(Windows)
        typealias Primitive = SRWLOCK
        private static func lock(_ lock: UnsafeMutablePointer<Primitive>) { AcquireSRWLockExclusive(lock) }
        private static func unlock(_ lock: UnsafeMutablePointer<Primitive>) { ReleaseSRWLockExclusive(lock) }
    #else
        typealias Primitive = pthread_mutex_t
        private static func lock(_ lock: UnsafeMutablePointer<Primitive>) { pthread_mutex_lock(lock) }
        private static func unlock(_ lock: UnsafeMutablePointer<Primitive>) { pthread_mutex_unlock(lock) }
    #endif

    /// The value as the header and the lock as the one element of a `ManagedBuffer`, whose
    /// element storage has a stable address, as a lock needs.
    private final class Storage: ManagedBuffer<Value, Primitive> {
        static func make(_ value: Value) -> Storage {
            let buffer = create(minimumCapacity: 1) { _ in value }
            buffer.withUnsafeMutablePointerToElements { lock in
                #if canImport(Darwin)
                    lock.initialize(to: os_unfair_lock())
                #elseif os(Windows)
                    InitializeSRWLock(lock)
                #else
                    lock.initialize(to: pthread_mutex_t())
                    pthread_mutex_init(lock, nil)
                #endif
            }
            // `create` makes an instance of the class it is called on.
            return unsafeDowncast(buffer, to: Storage.self)
        }

        // The header, a stored property, goes with the instance; the element is this class's to end.
        deinit {
            withUnsafeMutablePointerToElements { lock in
                #if !canImport(Darwin) && !os(Windows)
                    pthread_mutex_destroy(lock)
                #endif
                lock.deinitialize(count: 1)
            }
        }
    }
}
