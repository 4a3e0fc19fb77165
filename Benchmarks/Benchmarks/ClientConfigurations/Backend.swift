// The backend every client benchmark calls, and what both the timed benchmarks (`ClientOverhead`)
// and the instruction counts (`PipelineCounts`) need of it: its envelope, its item, an in-memory
// transport that answers like it, and a log handler that keeps nothing.

import Backstop
import Foundation
import Logging
import OpenAPIRuntime

/// What `/items/:id` answers inside backend B's envelope.
public struct Item: Codable, Sendable, Equatable {
    public var id: Int
    public var name: String

    public init(id: Int, name: String) {
        self.id = id
        self.name = name
    }
}

/// Backend B's envelope, as `APIClient` unwraps it.
public let backendB = EnvelopeContract(code: "code", message: ["msg"], payload: "data", success: .codes([200]))

/// Backend B's envelope as an app without Backstop decodes it.
public struct BackendBDecodedEnvelope<Payload: Decodable>: Decodable {
    public var code: Int
    public var msg: String
    public var data: Payload
}

/// Backend B's success envelope around `data`.
public struct BackendBEnvelope<Payload: Encodable>: Encodable {
    public var code = 200
    public var msg = "OK"
    public var data: Payload

    public init(data: Payload) {
        self.data = data
    }
}

/// Answers every request at once with one payload in backend B's envelope, without a network.
public struct InMemoryTransport: ClientTransport {
    public static let baseURL = URL(string: "http://in-memory.invalid")!
    private let body: [UInt8]

    public init(payload: some Encodable) {
        body = Array((try? JSONEncoder().encode(BackendBEnvelope(data: payload))) ?? Data())
    }

    public func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), HTTPBody(self.body))
    }
}

/// Takes every line at `logLevel` or above and keeps none, so the client describes each call it
/// lets through as it would for a real handler; swift-log's no-op handler would let logging skip
/// that work. At `info` unless given, swift-log's default level, which drops the pipeline's
/// `debug` lines as an app that sets no level does.
public struct DiscardingLogHandler: LogHandler {
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]

    public init(logLevel: Logger.Level = .info) {
        self.logLevel = logLevel
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {}
}

/// A failed check of a benchmark's set-up.
public struct BenchmarkFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
