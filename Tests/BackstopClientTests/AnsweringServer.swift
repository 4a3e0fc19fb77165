import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A small HTTP/1.1 server on 127.0.0.1, port 0, on raw sockets: it answers each request with
/// what `answer` makes of it, so a test can have a server echo what it received (a credential,
/// the query) in its error messages, and it counts what reached it.
final class AnsweringServer: @unchecked Sendable {
    /// A request as it arrived: method, target as sent (with its query), header fields (lowercased names).
    struct Request: Sendable {
        var method: String
        var target: String
        var headers: [String: String]
    }

    /// What the server sends back.
    struct Reply: Sendable {
        var status: Int
        var body: String
        var contentType = "application/json"
    }

    /// The port it listens on.
    let port: Int
    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    private let listener: Int32
    private let answer: @Sendable (Request) -> Reply
    private let lock = NSLock()
    private var requests: [Request] = []
    private let stopped = DispatchSemaphore(value: 0)

    /// Starts listening; `answer` makes the reply to each request.
    init(answer: @escaping @Sendable (Request) -> Reply) throws {
        self.answer = answer
        #if canImport(Glibc)
            let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let listener = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard listener >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) }
        }
        guard bound == 0, listen(listener, 64) == 0 else {
            close(listener)
            throw POSIXError(.EADDRINUSE)
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        self.listener = listener
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    /// The requests that reached it so far.
    var received: [Request] { lock.withLock { requests } }

    /// Stops listening and waits for the serving thread to end.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        stopped.wait()
        close(listener)
    }

    private func serve() {
        defer { stopped.signal() }
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            // A client that connects and sends nothing cannot keep the server from stopping.
            var limit = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            handle(connection)
            close(connection)
        }
    }

    private func handle(_ connection: Int32) {
        var head = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        let end = Data("\r\n\r\n".utf8)
        while head.range(of: end) == nil, head.count < 65536 {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return }
            head.append(contentsOf: buffer[0..<count])
        }
        let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ")
        guard requestLine.count >= 2 else { return }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let request = Request(method: String(requestLine[0]), target: String(requestLine[1]), headers: headers)
        lock.withLock { requests.append(request) }
        let reply = answer(request)
        let body = Data(reply.body.utf8)
        var response = Data("HTTP/1.1 \(reply.status) Status\r\nContent-Type: \(reply.contentType)\r\n".utf8)
        response.append(Data("Content-Length: \(body.count)\r\nConnection: close\r\n\r\n".utf8))
        response.append(body)
        response.withUnsafeBytes { bytes in
            var sent = 0
            while sent < bytes.count {
                #if canImport(Glibc)
                    let count = send(connection, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
                #else
                    let count = send(connection, bytes.baseAddress! + sent, bytes.count - sent, 0)
                #endif
                guard count > 0 else { return }
                sent += count
            }
        }
    }
}

/// Runs an ``AnsweringServer`` around `body`, and stops it.
func withAnsweringServer<Result>(
    answer: @escaping @Sendable (AnsweringServer.Request) -> AnsweringServer.Reply,
    _ body: (AnsweringServer) async throws -> Result
) async throws -> Result {
    let server = try AnsweringServer(answer: answer)
    defer { server.stop() }
    return try await body(server)
}
