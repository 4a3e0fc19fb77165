// The hand-written call of `StageSet.handWritten` on AsyncHTTPClient's other API: a second
// baseline for `APIClient` on `HTTPClientTransport`, which sends a timed call through this API.

import AsyncHTTPClient
import ClientConfigurations
import Foundation
import NIOCore
import NIOHTTP1

/// `GET /items/7` written by hand on AsyncHTTPClient's delegate API: `execute(request:delegate:)`
/// with its own `ResponseAccumulator` and a 60 s deadline, then the envelope decoded as
/// `StageSet.handWritten` decodes it.
///
/// `StageSet.handWritten` sends through `HTTPClientTransport.send`, AsyncHTTPClient's async API,
/// as swift-openapi-async-http-client does. `APIClient` with a timeout sends through this API
/// instead, because its deadline covers the body; an app could write either by hand.
public enum DelegateAPICall {
    /// Its name beside `StageSet`'s raw values.
    public static let name = "raw+Foundation, delegate API"

    /// The call on `client`, checked once: a call that answers a wrong item fails here instead
    /// of being timed.
    public static func request(on client: HTTPClient, baseURL: URL) async throws -> @Sendable () async throws -> Item {
        let url = baseURL.appendingPathComponent("items/7").absoluteString
        let decoder = JSONDecoder()
        let request: @Sendable () async throws -> Item = {
            var headers = HTTPHeaders()
            headers.add(name: "accept", value: "application/json")
            let clientRequest = try HTTPClient.Request(url: url, method: HTTPMethod.GET, headers: headers)
            let task: HTTPClient.Task<HTTPClient.Response> = client.execute(
                request: clientRequest, delegate: ResponseAccumulator(request: clientRequest), eventLoop: .indifferent,
                deadline: NIODeadline.now() + TimeAmount.seconds(60))
            let response = try await task.futureResult.get()
            guard response.status == .ok else { throw BenchmarkFailure("status \(response.status)") }
            let data = response.body.map { Data($0.readableBytesView) } ?? Data()
            let envelope = try decoder.decode(BackendBDecodedEnvelope<Item>.self, from: data)
            guard envelope.code == 200 else { throw BenchmarkFailure("code \(envelope.code): \(envelope.msg)") }
            return envelope.data
        }
        guard try await request() == Item(id: 7, name: "Item 7") else { throw BenchmarkFailure("\(name) answered a wrong item") }
        return request
    }
}
