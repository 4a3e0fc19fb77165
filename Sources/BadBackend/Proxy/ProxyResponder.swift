import Backstop
import BackstopOpenAPI
import Foundation
import HTTPTypes
import Logging

#if BadBackend && OpenAPI
    import AsyncHTTPClient
    import Hummingbird
    import NIOCore
    import NIOHTTP1
    import ServiceLifecycle
#else
    #error(
        "BadBackend needs Backstop's BadBackend and OpenAPI traits: .package(name: \"Backstop\", …, traits: [\"BadBackend\", \"OpenAPI\"])")
#endif

/// Answers every request to the proxy: picks its scenario, forwards it, and passes the
/// upstream's answer back as the scenario says.
@available(macOS 14, iOS 17, tvOS 17, *)
struct ProxyResponder: HTTPResponder {
    let proxy: BackstopProxy
    let client: HTTPClient
    /// The upstream as the log shows it: without a user or password.
    let shownUpstream: URL

    init(proxy: BackstopProxy, client: HTTPClient) {
        self.proxy = proxy
        self.client = client
        var components = URLComponents(url: proxy.configuration.upstream, resolvingAgainstBaseURL: false)
        components?.user = nil
        components?.password = nil
        shownUpstream = components?.url ?? proxy.configuration.upstream
    }

    /// Credentials the log never shows: Backstop's defaults and the usual API-key headers.
    static let redaction = Redaction(
        headerFields: Set(
            ["X-Api-Key", "Api-Key", "X-Auth-Token", "X-Access-Token", "X-Amz-Security-Token"].compactMap { HTTPField.Name($0) }))

    func respond(to request: Request, context: ProxyRequestContext) async throws -> Response {
        // Taken first, so a test that sees the request in the log and advances its clock past
        // a fault's wait always releases it.
        let arrival = proxy.clock.elapsed()
        let started = ContinuousClock.now
        let configuration = proxy.configuration
        let method = request.method.rawValue
        let path = request.uri.path
        let target = Self.target(configuration.upstream, path: path, query: request.uri.query)
        // Only a query holds secrets Redaction names: without one the URL is shown as it is.
        let hasQuery = !(request.uri.query ?? "").isEmpty
        let shownTarget = Self.target(shownUpstream, path: path, query: request.uri.query)
        let shown = hasQuery ? URL(string: shownTarget).map { Self.redaction.redacted(url: $0) } ?? shownTarget : shownTarget
        var exchange = Exchange(
            logger: proxy.logger, method: method, shownURL: shown, headers: request.headers, started: started)
        let named: Result<ProxyScenario?, ProxyScenario.Invalid>? = request.headers.first {
            $0.name.canonicalName == "backstop-scenario"
        }.map { field in
            field.value.trimmingCharacters(in: .whitespaces).lowercased() == "none"
                ? .success(nil) : Result { () throws(ProxyScenario.Invalid) in try ProxyScenario(parsing: field.value) }
        }
        let configured = configuration.scenario
        let random = configuration.randomFaults
        let faults = configuration.document == nil ? ProxyScenario.randomFaults : ProxyScenario.randomFaultsWithDocument
        // A function of the attempt alone, so the log and the answer name the same scenario.
        let choose: @Sendable (Int) -> ProxyScenario? = { attempt in
            switch named {
            case .success(let scenario)?: scenario
            case .failure?: nil
            case nil: configured ?? random?.pick(among: faults, method: method, path: path, attempt: attempt)
            }
        }
        let entry = await proxy.requestLog.record(
            method: method, path: path, query: hasQuery ? URLComponents(string: shown)?.percentEncodedQuery ?? "" : "", credential: nil,
            body: nil,
            at: arrival
        ) { attempt in (nil, choose(attempt)?.description) }
        if case .failure(let invalid)? = named {
            return exchange.made(.badRequest, "Backstop-Scenario: \(invalid.description)")
        }
        let scenario = choose(entry.attempt)
        exchange.scenario = scenario
        if let scenario, scenario.needsDocument, configuration.document == nil {
            return exchange.made(
                .badRequest,
                "Backstop-Scenario: \(scenario.name) is made from the app's OpenAPI document, and this proxy has none (--openapi)")
        }

        switch scenario {
        case .timeout(let after)?:
            let clock = proxy.clock
            exchange.log(outcome: "held, no answer")
            try? await cancelWhenGracefulShutdown {
                if let after { try await clock.sleep(arrival + after) } else { try await gracefulShutdown() }
            }
            await context.closeConnection(abortively: false)
            throw ClosedOnPurpose()
        case .code(let name)?:
            if let document = configuration.document,
                let answer = Self.unauthorized(by: name, in: document, method: method, path: path)
            {
                exchange.log(outcome: "\(answer.status.code) from the proxy, not forwarded: \(name)")
                return answer.response
            }
        case .serverErrors(let ratio, let status, let retryAfter)?:
            let draw = RandomFaults(rate: 1, seed: configuration.seed).unit(method: method, path: path, attempt: entry.attempt)
            if draw < ratio {
                var response = exchange.made(HTTPResponse.Status(code: status), "http-5xx: \(status) instead of the upstream's answer")
                if let retryAfter { response.headers[.retryAfter] = String(retryAfter) }
                return response
            }
        default:
            break
        }

        var request = request
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: configuration.maximumRequestBodyBytes)
        } catch is NIOTooManyBytesError {
            return exchange.made(
                .contentTooLarge, "a request body is at most \(configuration.maximumRequestBodyBytes) bytes; it was not forwarded")
        }
        var outgoing = HTTPClientRequest(url: target)
        outgoing.method = HTTPMethod(rawValue: method)
        // Only an answer sent as it is can be changed: a scenario that changes the body asks for one.
        switch scenario {
        case .dirt?, .schemaDirt?, .code?: outgoing.headers = request.headers.forwardedUpstream(identityOnly: true)
        default: outgoing.headers = request.headers.forwardedUpstream(identityOnly: false)
        }
        if body.readableBytes > 0 || request.headers[.contentLength] != nil || request.headers[.transferEncoding] != nil {
            outgoing.body = .bytes(body)
        }

        let upstream: Upstream?
        do {
            upstream = try await forward(outgoing, deadline: arrival + configuration.upstreamTimeout)
        } catch is NIOTooManyBytesError {
            return exchange.made(
                .badGateway, "the upstream's answer is over \(configuration.maximumResponseBodyBytes) bytes, the most the proxy passes back"
            )
        } catch {
            let reason = Self.redaction.redacted(String(describing: error), sentTo: URL(string: target) ?? configuration.upstream)
            return exchange.made(.badGateway, "the upstream \(Self.origin(configuration.upstream)) failed: \(reason)")
        }
        guard let upstream else {
            return exchange.made(
                .badGateway, "the upstream \(Self.origin(configuration.upstream)) did not answer within \(configuration.upstreamTimeout)")
        }
        guard (100...999).contains(Int(upstream.status.code)) else {
            return exchange.made(.badGateway, "the upstream answered status \(upstream.status.code), which HTTP does not have")
        }
        let status = HTTPResponse.Status(code: Int(upstream.status.code))
        var headers = upstream.headers.passedBack
        // A HEAD answer has no body but the length a GET's would have, which the client reads.
        if request.method == .head, let length = upstream.headers.first(name: "content-length") { headers[.contentLength] = length }
        var bytes = Array(buffer: upstream.body)
        if let document = configuration.document, let scenario, let dirt = DocumentDirt(rawValue: scenario.name) {
            let (dirty, applied) = Self.dirtied(bytes, by: dirt, in: document, method: method, path: path, status: status, headers: headers)
            if let dirty { bytes = dirty }
            if let name = HTTPField.Name("Backstop-Scenario-Applied") { headers[name] = applied }
            exchange.log(outcome: "upstream \(status.code); \(applied)")
        } else if let document = configuration.document, case .code(let name)? = scenario {
            let (coded, applied) = Self.coded(bytes, by: name, in: document, method: method, path: path, status: status, headers: headers)
            if let coded { bytes = coded }
            if let header = HTTPField.Name("Backstop-Scenario-Applied") { headers[header] = applied }
            exchange.log(outcome: "upstream \(status.code); \(applied)")
        } else {
            exchange.log(outcome: "upstream \(status.code)")
        }

        switch scenario {
        case .dirt(let dirt)?:
            if configuration.document == nil, Self.isJSON(headers) { bytes = dirt.applied(to: bytes) }
        case .latency(let delay, let jitter)?:
            let draw = RandomFaults(rate: 1, seed: ~configuration.seed).unit(method: method, path: path, attempt: entry.attempt)
            let wait = max(delay + jitter * (draw * 2 - 1), .zero)
            let clock = proxy.clock
            try await cancelWhenGracefulShutdown { try await clock.sleep(arrival + wait) }
        case .bandwidth(let bytesPerSecond)?:
            return Response(status: status, headers: headers, body: trickled(bytes, bytesPerSecond: bytesPerSecond))
        case .reset(let after)?:
            guard after > 0 else {
                await context.closeConnection(abortively: true)
                throw ClosedOnPurpose()
            }
            let prefix = ByteBuffer(bytes: bytes.prefix(after))
            return Response(
                status: status, headers: headers,
                body: ResponseBody(contentLength: bytes.count) { writer in
                    try await writer.write(prefix)
                    await context.closeConnection(abortively: true)
                    throw ClosedOnPurpose()
                })
        case .slowClose(let delay)?:
            let start = proxy.clock.elapsed()
            let clock = proxy.clock
            let whole = ByteBuffer(bytes: bytes)
            // No length: the client knows the answer is whole only when its end comes.
            return Response(
                status: status, headers: headers,
                body: ResponseBody { writer in
                    try await writer.write(whole)
                    try await cancelWhenGracefulShutdown { try await clock.sleep(start + delay) }
                    try await writer.finish(nil)
                })
        case .schemaDirt?, .code?, .timeout?, .serverErrors?, nil:
            break
        }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// The upstream's answer, head and whole body, or `nil` when the deadline on the proxy's
    /// clock came first.
    private func forward(_ outgoing: HTTPClientRequest, deadline: Duration) async throws -> Upstream? {
        let client = client
        let clock = proxy.clock
        let limit = proxy.configuration.maximumResponseBodyBytes
        let (seconds, attoseconds) = proxy.configuration.upstreamTimeout.components
        let timeout = TimeAmount.nanoseconds(max(seconds, 0) * 1_000_000_000 + attoseconds / 1_000_000_000)
        if clock.isContinuous {
            // The system's clock: the event loop keeps the deadline, which is far cheaper than a
            // task sleeping beside each call. A body that stalls meets the client's read timeout.
            // The client's read timeout is the same time, so either error may come first.
            let end = NIODeadline.now() + timeout
            do {
                let response = try await client.execute(outgoing, deadline: end)
                if let length = response.headers.first(name: "content-length").flatMap(Int.init), length > limit {
                    throw NIOTooManyBytesError(maxBytes: limit)
                }
                var body = ByteBuffer()
                for try await part in response.body {
                    guard NIODeadline.now() < end else { return nil }
                    guard body.readableBytes + part.readableBytes <= limit else { throw NIOTooManyBytesError(maxBytes: limit) }
                    body.writeImmutableBuffer(part)
                }
                return Upstream(status: response.status, headers: response.headers, body: body)
            } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout {
                return nil
            }
        }
        return try await withThrowingTaskGroup(of: Upstream?.self) { group in
            group.addTask {
                // The same time again on the system's clock: the proxy's may be a test clock nobody advances.
                let response = try await client.execute(outgoing, deadline: .now() + timeout)
                let body = try await response.body.collect(upTo: limit)
                return Upstream(status: response.status, headers: response.headers, body: body)
            }
            group.addTask {
                try await clock.sleep(deadline)
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
    }

    /// `bytes` sent a tenth of a second's worth at a time, on the proxy's clock from now.
    private func trickled(_ bytes: [UInt8], bytesPerSecond: Int) -> ResponseBody {
        let clock = proxy.clock
        let start = clock.elapsed()
        let chunk = max(bytesPerSecond / 10, 1)
        return ResponseBody(contentLength: bytes.count) { writer in
            for (tick, offset) in stride(from: 0, to: bytes.count, by: chunk).enumerated() {
                if tick > 0 {
                    let deadline = start + .milliseconds(100) * tick
                    try await cancelWhenGracefulShutdown { try await clock.sleep(deadline) }
                }
                try await writer.write(ByteBuffer(bytes: bytes[offset..<min(offset + chunk, bytes.count)]))
            }
            try await writer.finish(nil)
        }
    }

    /// The upstream URL for a request: the upstream's own path, then the request's path and query.
    static func target(_ upstream: URL, path: String, query: String?) -> String {
        var base = upstream.absoluteString
        if let queryStart = base.firstIndex(of: "?") { base = String(base[..<queryStart]) }
        while base.hasSuffix("/") { base.removeLast() }
        return base + (path.hasPrefix("/") ? path : "/" + path) + (query.map { $0.isEmpty ? "" : "?" + $0 } ?? "")
    }

    /// The upstream's scheme, host and port, for messages: never its path or query.
    static func origin(_ upstream: URL) -> String {
        var components = URLComponents()
        components.scheme = upstream.scheme
        components.host = upstream.host
        components.port = upstream.port
        return components.string ?? "upstream"
    }

    /// Whether the answer is JSON by its `Content-Type` and sent as it is, not compressed:
    /// the only answers the proxy dirties.
    static func isJSON(_ headers: HTTPFields) -> Bool {
        let type = headers[.contentType]?.lowercased() ?? ""
        let encoding = headers[.contentEncoding]?.lowercased() ?? "identity"
        return type.contains("json") && encoding == "identity"
    }

    /// The upstream's answer as received.
    struct Upstream: Sendable {
        var status: HTTPResponseStatus
        var headers: HTTPHeaders
        var body: ByteBuffer
    }

    /// Thrown after the proxy closed the client's connection on purpose: nothing more is sent.
    struct ClosedOnPurpose: Error {}
}
