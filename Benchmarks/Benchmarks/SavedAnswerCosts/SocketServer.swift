// A minimal HTTP/1.1 server on 127.0.0.1 over POSIX sockets, answering every request with one
// canned response on a kept-alive connection: the loopback backend of `SavedAnswerCosts`, which
// builds without SwiftNIO so that it builds in minutes on a loaded machine.

import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Answers every request on 127.0.0.1 with the same response, one thread per connection.
final class SocketServer: Sendable {
    let port: UInt16
    private let listener: Int32
    private let response: [UInt8]

    /// Starts listening on a free port; `body` is sent as `application/json` with every answer.
    init(body: String) throws {
        let head =
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: keep-alive\r\n\r\n"
        let response = Array((head + body).utf8)
        self.response = response
        #if canImport(Glibc)
            let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let listener = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard listener >= 0 else { throw BenchmarkError("socket failed") }
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 64) == 0 else { throw BenchmarkError("bind or listen failed") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        self.listener = listener
        Thread.detachNewThread {
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { continue }
                var noDelay: Int32 = 1
                setsockopt(connection, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
                Thread.detachNewThread { Self.serve(connection, response) }
            }
        }
    }

    /// Answers each request on `connection` (a head ending in an empty line; these are GETs)
    /// until the client closes it.
    private static func serve(_ connection: Int32, _ response: [UInt8]) {
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        var pending: [UInt8] = []
        while true {
            let count = read(connection, &buffer, buffer.count)
            guard count > 0 else { break }
            pending.append(contentsOf: buffer[0..<count])
            while let end = headEnd(pending) {
                pending.removeFirst(end)
                var sent = 0
                while sent < response.count {
                    let wrote = response[sent...].withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
                    guard wrote > 0 else { break }
                    sent += wrote
                }
            }
        }
        close(connection)
    }

    /// Where the first request head in `bytes` ends, past its empty line.
    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 3..<bytes.count
        where bytes[index] == 10 && bytes[index - 1] == 13 && bytes[index - 2] == 10 && bytes[index - 3] == 13 {
            return index + 1
        }
        return nil
    }
}

/// A benchmark that cannot run, and why.
struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
