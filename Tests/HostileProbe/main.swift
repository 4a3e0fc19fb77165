// Runs one call against a hostile server in a process of its own, so that the test which
// spawns it can read this process's peak memory (and survive it if a transport crashes).
//
//     HostileProbe <default|urlSession|asyncHTTPClient> <server URL> [maximumResponseBytes]
//     HostileProbe cancel-stress <streaming|stock> <server URL> <calls>    (see CancellationStress)
//
// It first GETs `/warm` (a small answer) so that the libraries' own start-up memory is in the
// baseline, then GETs `/probe`. It prints one line of JSON: the call's outcome, the resident
// memory high-water mark before and after the probe call (KiB), and the limit.
import AsyncHTTPClient
import Backstop
import BackstopAsyncHTTPClient
import BackstopTestSupport
import Foundation
import OpenAPIRuntime

let arguments = CommandLine.arguments
if arguments.count >= 5, arguments[1] == "cancel-stress", let url = URL(string: arguments[3]), let calls = Int(arguments[4]),
    let transport = CancellationStress.transport(named: arguments[2])
{
    let outcomes = await CancellationStress.run(calls, to: url, on: transport)
    let counts = outcomes.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ")
    print("{\"calls\": \(calls), \"outcomes\": {\(counts)}}")
    exit(0)
}
guard arguments.count >= 3, let baseURL = URL(string: arguments[2]) else {
    print("usage: HostileProbe <default|urlSession|asyncHTTPClient> <url> [maximumResponseBytes]")
    exit(2)
}
let limit =
    arguments.count > 3 ? Int(arguments[3]) ?? ClientPipeline.defaultMaximumResponseBytes : ClientPipeline.defaultMaximumResponseBytes

/// The peak resident memory so far, in KiB (`VmHWM` on Linux, `ru_maxrss` on Apple platforms).
func peakKiB() -> Int {
    if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
    {
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? -1
    }
    #if os(Linux)
        return -1
    #else
        var usage = rusage()
        getrusage(RUSAGE_SELF, &usage)
        return Int(usage.ru_maxrss) / 1024
    #endif
}

var pipeline = ClientPipeline(logging: nil, metrics: nil, retry: .never, maximumResponseBytes: limit)
pipeline.timeout = .seconds(60)
let client: APIClient<NoModuleCodes>
switch arguments[1] {
case "default":
    client = APIClient(baseURL: baseURL, pipeline: pipeline)
case "urlSession":
    client = APIClient(baseURL: baseURL, pipeline: pipeline, transport: StreamingURLSessionTransport(maximumResponseBytes: limit))
case "asyncHTTPClient":
    client = APIClient(baseURL: baseURL, pipeline: pipeline, transport: HTTPClientTransport())
default:
    print("unknown transport \(arguments[1])")
    exit(2)
}

let warm = Endpoint<String, NoModuleCodes>(.get, "warm", contract: EnvelopeContract.noEnvelope)
_ = try? await client.send(warm)
let baseline = peakKiB()
let outcome: String
do {
    _ = try await client.send(Endpoint<String, NoModuleCodes>(.get, "probe"))
    outcome = "success"
} catch {
    switch error {
    case .client(let failure): outcome = "client \(failure.reason)"
    case .transport(let failure): outcome = "transport \(failure.reason.rawValue)"
    case .http(let failure): outcome = "http \(failure.status.code)"
    default: outcome = "other"
    }
}
print(#"{"outcome": "\#(outcome)", "baselineKiB": \#(baseline), "peakKiB": \#(peakKiB()), "limit": \#(limit)}"#)
