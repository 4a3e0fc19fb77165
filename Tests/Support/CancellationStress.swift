import Backstop
import Foundation
import OpenAPIRuntime
import OpenAPIURLSession

/// Calls cancelled at every moment a caller can cancel them: before the request starts, as it
/// starts, while the head is on its way, while the body streams, and as the call ends; by the
/// caller's task, a batch all at once, and by deadlines that pass at random moments.
///
/// swift-corelibs-foundation's cancellation races stop the process on a transport that trips
/// them, so the stress runs in a test's own process (under ThreadSanitizer in CI) only on a
/// transport that must survive it, and in a child process (`HostileProbe cancel-stress`)
/// where the process itself is what is checked.
public enum CancellationStress {
    /// A payload that accepts any JSON: the calls' answers do not matter, only how they end.
    public struct Anything: Decodable, Sendable {
        public init(from decoder: any Decoder) throws {}
    }

    /// How each call ended, counted: `success`, `transport cancelled`, `transport timedOut`,
    /// or another failure's layer and reason.
    public typealias Outcomes = [String: Int]

    /// The transports the stress runs on: Backstop's own, or swift-openapi-urlsession's.
    public static func transport(named name: String) -> (any ClientTransport)? {
        switch name {
        case "streaming": StreamingURLSessionTransport()
        case "stock": URLSessionTransport()
        default: nil
        }
    }

    /// `calls` calls to `url` (BadBackend, or any server answering `GET /b/products/1` and
    /// `GET /b/echo` with JSON) on `transport`, in batches of 50.
    public static func run(_ calls: Int, to url: URL, on transport: any ClientTransport) async -> Outcomes {
        let pipeline = ClientPipeline(logging: nil, metrics: nil, timeout: nil, retry: .never)
        let client = APIClient<NoModuleCodes>(
            baseURL: url, contract: EnvelopeContract.noEnvelope, pipeline: pipeline, transport: transport)
        var outcomes: Outcomes = [:]
        var done = 0
        while done < calls {
            let batch = min(50, calls - done)
            for outcome in await Self.batch(of: batch, on: client, allAtOnce: done % 100 == 0) {
                outcomes[outcome, default: 0] += 1
            }
            done += batch
        }
        return outcomes
    }

    /// `count` calls at once. A third end by a deadline of up to 3 ms; the others are
    /// cancelled after a random number of yields or, with `allAtOnce`, together.
    private static func batch(of count: Int, on client: APIClient<NoModuleCodes>, allAtOnce: Bool) async -> [String] {
        await withTaskGroup(of: String.self) { group in
            for index in 0..<count {
                let timeout: Duration? = index % 3 == 0 ? .microseconds(Int.random(in: 0...3_000)) : nil
                let endpoint = Endpoint<Anything, NoModuleCodes>(.get, index % 2 == 0 ? "b/products/1" : "b/echo", timeout: timeout)
                group.addTask {
                    let call = Task { await outcome(of: client, endpoint) }
                    if !allAtOnce && timeout == nil {
                        for _ in 0..<Int.random(in: 0...200) { await Task.yield() }
                        call.cancel()
                    }
                    return await call.value
                }
            }
            if allAtOnce {
                for _ in 0..<Int.random(in: 0...100) { await Task.yield() }
                group.cancelAll()
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    private static func outcome(of client: APIClient<NoModuleCodes>, _ endpoint: Endpoint<Anything, NoModuleCodes>) async -> String {
        do {
            _ = try await client.send(endpoint)
            return "success"
        } catch {
            switch error {
            case .transport(let failure): return "transport \(failure.reason.rawValue)"
            case .http(let failure): return "http \(failure.status.code)"
            case .client(let failure): return "client \(failure.reason)"
            default: return "other"
            }
        }
    }
}
