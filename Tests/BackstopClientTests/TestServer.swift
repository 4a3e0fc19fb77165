import Foundation
import Hummingbird
import Logging

/// A real HTTP server on 127.0.0.1, on a port the system picks, started once per test run.
///
/// Routes speak backend B's envelope (`{"code":200,"msg":"OK","data":…}`). Tests use a key
/// of their own in the path so that counts never mix between tests running in parallel.
enum TestServer {
    struct Running: Sendable {
        let baseURL: URL
        let state: ServerState
    }

    static let shared = Task<Running, any Error> { try await start() }

    /// The running server, started on first use.
    static func running() async throws -> Running { try await shared.value }

    private static func start() async throws -> Running {
        let state = ServerState()
        let router = Router()
        addRoutes(to: router, state: state)
        let (portStream, portContinuation) = AsyncStream<Int>.makeStream()
        var quiet = Logger(label: "test-server")
        quiet.logLevel = .critical
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            },
            logger: quiet
        )
        // Runs for the rest of the test process.
        Task { try await app.run() }
        var port = 0
        for await value in portStream { port = value }
        guard port != 0, let url = URL(string: "http://127.0.0.1:\(port)") else { throw StartFailed() }
        return Running(baseURL: url, state: state)
    }

    struct StartFailed: Error {}

    static func envelope(code: Int = 200, message: String = "OK", data: String = "null") -> String {
        #"{"code":\#(code),"msg":"\#(message)","data":\#(data)}"#
    }

    private static func json(_ text: String, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "application/json"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    private static func addRoutes(to router: Router<BasicRequestContext>, state: ServerState) {
        router.get("items/:id") { _, context in
            let id = context.parameters.get("id", as: Int.self) ?? 0
            return json(envelope(data: #"{"id":\#(id),"name":"Item \#(id)"}"#))
        }
        // The id as a string, which lenient decoding repairs.
        router.get("quoted/:id") { _, context in
            let id = context.parameters.get("id", as: Int.self) ?? 0
            return json(envelope(data: #"{"id":"\#(id)","name":"Item \#(id)"}"#))
        }
        // Echoes the JSON body as the payload and keeps the bytes for the test.
        for method in [HTTPRequest.Method.post, .put] {
            router.on("echo/:key", method: method) { request, context in
                var request = request
                let body = try await request.collectBody(upTo: 1 << 20)
                let key = context.parameters.get("key") ?? ""
                let hits = await state.hit(key, body: Data(buffer: body))
                let failures = request.uri.queryParameters.get("failures", as: Int.self) ?? 0
                if hits <= failures { return json(envelope(code: 50300, message: "busy"), status: .serviceUnavailable) }
                return json(envelope(data: String(buffer: body)))
            }
        }
        // `?code=503` for the first `failures` hits (every hit without it), then an item.
        for method in [HTTPRequest.Method.get, .post, .put, .delete] {
            router.on("status/:key", method: method) { request, context in
                let key = context.parameters.get("key") ?? ""
                let hits = await state.hit(key)
                let query = request.uri.queryParameters
                let code = query.get("code", as: Int.self) ?? 503
                let failures = query.get("failures", as: Int.self) ?? Int.max
                guard hits > failures else {
                    var headers: HTTPFields = [:]
                    if let retryAfter = query.get("retryAfter") { headers[.retryAfter] = String(retryAfter) }
                    return json(envelope(code: code * 100, message: "failing"), status: .init(code: code), headers: headers)
                }
                return json(envelope(data: #"{"id":\#(hits),"name":"Item \#(hits)"}"#))
            }
        }
        // A business code in a 200 envelope for the first `failures` hits, then an item.
        router.get("business/:key") { request, context in
            let key = context.parameters.get("key") ?? ""
            let hits = await state.hit(key)
            let query = request.uri.queryParameters
            let code = query.get("code", as: Int.self) ?? 42901
            if hits <= query.get("failures", as: Int.self) ?? Int.max {
                return json(envelope(code: code, message: "declined"))
            }
            return json(envelope(data: #"{"id":\#(hits),"name":"Item \#(hits)"}"#))
        }
        router.get("malformed/:key") { _, context in
            _ = await state.hit(context.parameters.get("key") ?? "")
            return json("this is not JSON")
        }
        router.get("large") { request, _ in
            let bytes = request.uri.queryParameters.get("bytes", as: Int.self) ?? 0
            return json(envelope(data: "\"" + String(repeating: "a", count: bytes) + "\""))
        }
        // Answers only after ten seconds: long enough for any test to give up first.
        router.get("slow/:key") { _, context in
            _ = await state.hit(context.parameters.get("key") ?? "")
            try await Task.sleep(for: .seconds(10))
            return json(envelope())
        }
    }
}

/// What the server saw, per test key.
actor ServerState {
    private var hits: [String: Int] = [:]
    private var bodies: [String: [Data]] = [:]
    private var waiters: [String: [CheckedContinuation<Void, Never>]] = [:]

    func hit(_ key: String, body: Data? = nil) -> Int {
        hits[key, default: 0] += 1
        if let body { bodies[key, default: []].append(body) }
        for waiter in waiters.removeValue(forKey: key) ?? [] { waiter.resume() }
        return hits[key] ?? 0
    }

    func hits(_ key: String) -> Int { hits[key] ?? 0 }
    func bodies(_ key: String) -> [Data] { bodies[key] ?? [] }

    /// Returns once a request with `key` has arrived.
    func arrival(of key: String) async {
        if hits[key] != nil { return }
        await withCheckedContinuation { waiters[key, default: []].append($0) }
    }
}
