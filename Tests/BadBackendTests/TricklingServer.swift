import Foundation

/// A raw-socket HTTP server on 127.0.0.1 for one connection: it answers a chunked 200 and then
/// sends only what the test tells it to, when it tells it, and never ends the body.
///
/// For `backstop check`'s total deadline: a body that keeps trickling must still end at the
/// deadline, which an idle timeout never reaches.
final class TricklingServer: @unchecked Sendable {
    private let listener: Int32
    /// The port the system picked.
    let port: Int
    private let lock = NSLock()
    private var connection: Int32 = -1
    private var waiting: CheckedContinuation<Void, Never>?

    struct Failed: Error {
        let what: String
    }

    init() throws {
        #if canImport(Glibc)
            let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let listener = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard listener >= 0 else { throw Failed(what: "socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) }
        }
        guard bound == 0, listen(listener, 1) == 0 else { throw Failed(what: "bind") }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    /// Accepts one connection, reads its request, and sends the head of an endless chunked body.
    private func serve() {
        let accepted = accept(listener, nil, nil)
        guard accepted >= 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        _ = read(accepted, &buffer, buffer.count)
        let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n{\r\n"
        Self.transmit(head, to: accepted)
        let waiter = lock.withLock {
            connection = accepted
            defer { waiting = nil }
            return waiting
        }
        waiter?.resume()
    }

    /// Returns once a client has connected and got the response's head.
    func connected() async {
        await withCheckedContinuation { continuation in
            let ready = lock.withLock {
                if connection >= 0 { return true }
                waiting = continuation
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Sends one more chunk of the body: a space.
    func trickle() {
        let chunk = "1\r\n \r\n"
        Self.transmit(chunk, to: lock.withLock { connection })
    }

    /// Writes `text`, or nothing once the client has gone: no SIGPIPE.
    private static func transmit(_ text: String, to descriptor: Int32) {
        #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL)
        #else
            let flags: Int32 = 0
        #endif
        _ = Array(text.utf8).withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, flags) }
    }

    /// Closes the connection and the listener; an `accept` still waiting returns.
    func stop() {
        let connection = lock.withLock { self.connection }
        if connection >= 0 { _ = close(connection) }
        _ = shutdown(listener, Int32(SHUT_RDWR))
        _ = close(listener)
    }
}
