import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One client connection of a ``HostileServer``: what a script reads and writes, blocking.
public final class HostileConnection: @unchecked Sendable {
    /// The client went away, or the server stopped.
    public struct Closed: Error {}

    private let descriptor: Int32
    private let state: HostileServerState
    private var buffered: [UInt8] = []

    init(descriptor: Int32, state: HostileServerState) {
        self.descriptor = descriptor
        self.state = state
    }

    /// Reads one request, its head and a body of `Content-Length` bytes, and records it on the server.
    @discardableResult
    public func readRequest() throws -> HostileRequest {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        var end: Int?
        while end == nil {
            end = firstRange(of: separator, in: buffered)
            if end == nil {
                guard buffered.count < 1 << 16 else { throw Closed() }
                try fill()
            }
        }
        let headEnd = end ?? 0
        let head = String(decoding: buffered[..<headEnd], as: UTF8.self)
        buffered.removeFirst(headEnd + separator.count)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        let fields = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var request = HostileRequest(
            method: requestLine.first ?? "", target: requestLine.dropFirst().first ?? "", headerFields: fields, body: Data())
        let length = Int(request["content-length"] ?? "0") ?? 0
        while buffered.count < length { try fill() }
        request.body = Data(buffered[..<length])
        buffered.removeFirst(length)
        state.record(request)
        return request
    }

    /// Writes `text`'s UTF-8 bytes.
    public func write(_ text: String) throws { try write(Array(text.utf8)) }

    /// Writes `bytes` whole; throws ``Closed`` once the client has gone.
    public func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw Closed() }
            offset += sent
        }
    }

    /// Writes a chunked body's chunks of `size` bytes until the client hangs up.
    public func writeEndlessChunks(of size: Int = 64 << 10) throws {
        let chunk = Array(String(size, radix: 16).utf8) + [13, 10] + [UInt8](repeating: UInt8(ascii: "x"), count: size) + [13, 10]
        while true { try write(chunk) }
    }

    /// Blocks until the client closes the connection (or the server stops), reading and
    /// dropping whatever it sends meanwhile.
    public func waitForClose() {
        while (try? fill()) != nil { buffered.removeAll() }
    }

    private func fill() throws {
        var bytes = [UInt8](repeating: 0, count: 16 << 10)
        let count = bytes.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { throw Closed() }
        buffered += bytes[..<count]
    }

    private func firstRange(of separator: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= separator.count else { return nil }
        for start in 0...(bytes.count - separator.count) where bytes[start..<(start + separator.count)].elementsEqual(separator) {
            return start
        }
        return nil
    }
}
