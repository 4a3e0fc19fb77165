// The backend every client benchmark calls over loopback: a Hummingbird server in the
// benchmark's own process, shared by the timed benchmarks (`ClientOverhead`) and the instruction
// counts of whole calls (`LoopbackCounts`).

import ClientConfigurations
import Foundation
import Hummingbird
import Logging

/// A Hummingbird server on 127.0.0.1 answering like backend B.
public enum LocalServer {
    /// A check of the server or of a client against it that failed.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    /// The lengths of the lists `/lists/:count` answers.
    public static let listLengths = [1, 10, 100]

    /// `count` items, numbered from 0, as `/lists/:count` answers them.
    public static func items(_ count: Int) -> [Item] {
        (0..<count).map { Item(id: $0, name: "Item \($0)") }
    }

    /// Starts a server answering `/items/:id` and `/lists/:count` (any of ``listLengths``) in
    /// backend B's envelope; it runs until the process ends.
    public static func start() async throws -> URL {
        let router = Router()
        // Encoded once, so the server's time per request is the same whatever the client does.
        var lists: [Int: Data] = [:]
        for count in listLengths { lists[count] = try JSONEncoder().encode(BackendBEnvelope(data: items(count))) }
        router.get("lists/:count") { [lists] _, context in
            guard let count = context.parameters.get("count", as: Int.self), let body = lists[count] else {
                return Response(status: .notFound)
            }
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
        router.get("items/:id") { _, context in
            let id = context.parameters.get("id", as: Int.self) ?? 0
            let body = #"{"code":200,"msg":"OK","data":{"id":\#(id),"name":"Item \#(id)"}}"#
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: body)))
        }
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        var quiet = Logger(label: "bench-server")
        quiet.logLevel = .critical
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            }, logger: quiet)
        Task { try await app.run() }
        var port = 0
        for await value in ports { port = value }
        guard port != 0, let url = URL(string: "http://127.0.0.1:\(port)") else { throw Failure("the server did not start") }
        return url
    }
}
