import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A raw-socket HTTP server on 127.0.0.1, port 0, that answers each connection with a script
/// of bytes: for what a real server would never send (broken status lines, trickled headers,
/// endless bodies, redirects to another origin).
///
/// ```swift
/// let server = try HostileServer { connection in
///     _ = try connection.readRequest()
///     try connection.write("HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:1/\r\nContent-Length: 0\r\n\r\n")
/// }
/// defer { server.stop() }
/// ```
///
/// Each connection runs its script on a thread of its own, so a script may block: on
/// ``HostileConnection/waitForClose()`` until the client hangs up, or on a test's signal.
/// Nothing waits on the wall clock. A write to a client that has gone throws, which ends the
/// script; ``stop()`` closes every connection.
public final class HostileServer: Sendable {
    /// The port the server listens on.
    public let port: Int
    private let listener: Int32
    private let state = HostileServerState()

    /// A server whose every connection runs `script`.
    public init(_ script: @escaping @Sendable (HostileConnection) throws -> Void) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 64) == 0 else {
            close(listener)
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        let state = state
        Thread.detachNewThread {
            while true {
                let descriptor = accept(listener, nil, nil)
                guard descriptor >= 0 else { return }
                guard state.open(descriptor) else {
                    close(descriptor)
                    return
                }
                Thread.detachNewThread {
                    let connection = HostileConnection(descriptor: descriptor, state: state)
                    try? script(connection)
                    state.close(descriptor)
                }
            }
        }
    }

    /// `http://127.0.0.1:port`.
    public var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Every request the scripts have read, in order of arrival.
    public var requests: [HostileRequest] { state.requests }

    /// The `index`-th request the scripts read (from 0), once it has arrived.
    public func request(_ index: Int) async -> HostileRequest {
        await state.request(index)
    }

    /// Stops listening and closes every connection.
    public func stop() {
        state.stop()
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}

/// One request's head and body as a ``HostileServer`` script read it.
public struct HostileRequest: Sendable {
    /// `GET`, `POST`…
    public var method: String
    /// The request target as sent: path and query.
    public var target: String
    /// The header fields in order, names as sent.
    public var headerFields: [(name: String, value: String)]
    /// The body, read by its `Content-Length`.
    public var body: Data

    /// The first value of the field `name`, whatever its case.
    public subscript(_ name: String) -> String? {
        headerFields.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// The server's shared state: open connections and the requests read.
final class HostileServerState: @unchecked Sendable {
    private let lock = NSLock()
    private var descriptors: Set<Int32> = []
    private var stopped = false
    private var received: [HostileRequest] = []
    private var waiters: [(index: Int, continuation: CheckedContinuation<HostileRequest, Never>)] = []

    func open(_ descriptor: Int32) -> Bool {
        lock.withLock {
            guard !stopped else { return false }
            descriptors.insert(descriptor)
            return true
        }
    }

    func close(_ descriptor: Int32) {
        let wasOpen = lock.withLock { descriptors.remove(descriptor) != nil }
        if wasOpen {
            #if canImport(Glibc)
                _ = Glibc.close(descriptor)
            #else
                _ = Darwin.close(descriptor)
            #endif
        }
    }

    func stop() {
        let open = lock.withLock {
            stopped = true
            return descriptors
        }
        // Wakes each script blocked on its socket; the script's thread closes it.
        for descriptor in open { shutdown(descriptor, Int32(SHUT_RDWR)) }
    }

    var requests: [HostileRequest] { lock.withLock { received } }

    func record(_ request: HostileRequest) {
        let ready = lock.withLock {
            received.append(request)
            let ready = waiters.filter { $0.index < received.count }
            waiters.removeAll { $0.index < received.count }
            return ready.map { ($0.continuation, received[$0.index]) }
        }
        for (continuation, request) in ready { continuation.resume(returning: request) }
    }

    func request(_ index: Int) async -> HostileRequest {
        await withCheckedContinuation { continuation in
            let request: HostileRequest? = lock.withLock {
                if index < received.count { return received[index] }
                waiters.append((index, continuation))
                return nil
            }
            if let request { continuation.resume(returning: request) }
        }
    }
}
