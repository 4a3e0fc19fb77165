// swift-tools-version: 6.1
// Benchmarks for BackstopJSON and Backstop's client, kept in their own package so the library itself never
// depends on ordo-one/benchmark. Run with `./compare.sh` or `swift package benchmark`.
import PackageDescription

let package = Package(
    name: "BackstopBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(name: "Backstop", path: ".."),
        // The client benchmark's local server and second transport; never the library's.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // Issue 35: the corpus payloads' types, generated as an app's would be.
        .package(url: "https://github.com/apple/swift-openapi-generator", from: "1.14.3"),
    ],
    targets: [
        // The payloads and their models, shared by the timed benchmarks and the instruction counts.
        .target(
            name: "BenchmarkPayloads",
            path: "Benchmarks/Payloads"
        ),
        .executableTarget(
            name: "JSONDecoding",
            dependencies: [
                "BenchmarkPayloads",
                "Interleaving",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "BackstopJSON", package: "Backstop"),
                .product(name: "Backstop", package: "Backstop"),
            ],
            path: "Benchmarks/JSONDecoding",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark")
            ]
        ),
        // One payload decoded N times, for callgrind's instruction counts (`instructions.sh`).
        .executableTarget(
            name: "InstructionCounts",
            dependencies: [
                "BenchmarkPayloads",
                .product(name: "BackstopJSON", package: "Backstop"),
            ],
            path: "Benchmarks/InstructionCounts"
        ),
        // The order interleaved benchmarks run their contenders in, and its seeded generator.
        .target(
            name: "Interleaving",
            path: "Benchmarks/Interleaving"
        ),
        // The client benchmarks' backend, its in-memory twin, and issue 33 item 10's configurations,
        // shared by the timed benchmarks and the instruction counts.
        .target(
            name: "ClientConfigurations",
            dependencies: [
                .product(name: "Backstop", package: "Backstop"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/ClientConfigurations"
        ),
        // One configuration's call made N times in memory, for callgrind (`pipeline-instructions.sh`).
        .executableTarget(
            name: "PipelineCounts",
            dependencies: ["ClientConfigurations"],
            path: "Benchmarks/PipelineCounts"
        ),
        .executableTarget(
            name: "ClientOverhead",
            dependencies: [
                "ClientConfigurations",
                "Loopback",
                "Interleaving",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Backstop", package: "Backstop"),
                .product(name: "BackstopAsyncHTTPClient", package: "Backstop"),
                .product(name: "BackstopTracing", package: "Backstop"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/ClientOverhead",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark")
            ]
        ),
        // The client benchmarks' server on 127.0.0.1, and the hand-written call on AsyncHTTPClient's
        // delegate API, shared by the timed benchmarks and the loopback instruction counts.
        .target(
            name: "Loopback",
            dependencies: [
                "ClientConfigurations",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/Loopback"
        ),
        // One configuration's call made N times over loopback, for callgrind (`loopback-instructions.sh`).
        .executableTarget(
            name: "LoopbackCounts",
            dependencies: [
                "ClientConfigurations",
                "Loopback",
                .product(name: "Backstop", package: "Backstop"),
                .product(name: "BackstopAsyncHTTPClient", package: "Backstop"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            path: "Benchmarks/LoopbackCounts"
        ),
        // Interleaved rounds of whole calls over loopback: wall clock, CPU time and context
        // switches per call, each over the first configuration's (issue 49).
        .executableTarget(
            name: "LoopbackRounds",
            dependencies: [
                "ClientConfigurations",
                "Loopback",
                "Interleaving",
                .product(name: "Backstop", package: "Backstop"),
                .product(name: "BackstopAsyncHTTPClient", package: "Backstop"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ],
            path: "Benchmarks/LoopbackRounds"
        ),
        // Issue 50 item 9: saved answers' lookup and eviction at 1,000 and 100,000 answers, the
        // stage's cost per call, and a call answered from the store beside a loopback call. Its
        // loopback server is its own, on POSIX sockets: no SwiftNIO or Hummingbird to build.
        .executableTarget(
            name: "SavedAnswerCosts",
            dependencies: [
                "Interleaving",
                .product(name: "Backstop", package: "Backstop"),
                .product(name: "BackstopSQLite", package: "Backstop"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ],
            path: "Benchmarks/SavedAnswerCosts"
        ),
        // The corpus payloads as swift-openapi-generator's types, from `openapi.yaml` beside them
        // (issue 35): what a generated client decodes, and the document BackstopOpenAPI repairs against.
        .target(
            name: "GeneratedPayloads",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")
            ],
            path: "Benchmarks/GeneratedPayloads",
            plugins: [
                .plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")
            ]
        ),
        // The repair step against the generated decode, interleaved (issue 35).
        .executableTarget(
            name: "OpenAPIRepair",
            dependencies: [
                "BenchmarkPayloads",
                "Interleaving",
                "GeneratedPayloads",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "BackstopOpenAPI", package: "Backstop"),
            ],
            path: "Benchmarks/OpenAPIRepair",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark")
            ]
        ),
        // One payload repaired or decoded N times, for callgrind (`repair-instructions.sh`).
        .executableTarget(
            name: "RepairCounts",
            dependencies: [
                "BenchmarkPayloads",
                "GeneratedPayloads",
                .product(name: "BackstopOpenAPI", package: "Backstop"),
            ],
            path: "Benchmarks/RepairCounts"
        ),
    ]
)
