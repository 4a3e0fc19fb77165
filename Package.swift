// swift-tools-version: 6.1
import PackageDescription

// Traits keep what an app resolves small: each names the heavy packages of one optional part,
// and every use of those packages below is guarded by it. With Swift 6.2 or later, an app that
// depends on Backstop with `traits: []` resolves only Backstop's own packages (`.ci/run` checks).
// All are on by default, so `swift run backstop demo` and `swift test` here need no flags.
// A package used anywhere without its trait's guard, a test target's included, is resolved
// by every app again: guard each new use with `guarded(_:_:by:)`.
func guarded(_ product: String, _ package: String, by trait: String) -> Target.Dependency {
    .product(name: product, package: package, condition: .when(traits: [trait]))
}

let package = Package(
    name: "Backstop",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "BackstopJSON", targets: ["BackstopJSON"]),
        .library(name: "Backstop", targets: ["Backstop"]),
        // Backstop on AsyncHTTPClient, its errors classified by value; the only product with NIO.
        .library(name: "BackstopAsyncHTTPClient", targets: ["BackstopAsyncHTTPClient"]),
        // Backstop's calls as swift-distributed-tracing spans; apps that do not trace never build it.
        .library(name: "BackstopTracing", targets: ["BackstopTracing"]),
        .executable(name: "backstop", targets: ["BackstopCLI"]),
        // BadBackend: a misbehaving server for tests and demos; never a dependency of Backstop.
        .library(name: "BadBackend", targets: ["BadBackend"]),
        // A stub transport for unit-testing an app's calls without a server; Backstop only.
        .library(name: "BackstopTesting", targets: ["BackstopTesting"]),
        // A generated client's JSON responses repaired against the app's OpenAPI document; the only
        // product with OpenAPIKit and Yams.
        .library(name: "BackstopOpenAPI", targets: ["BackstopOpenAPI"]),
        // Saved answers kept across launches in an SQLite file; the only product with GRDB.
        .library(name: "BackstopSQLite", targets: ["BackstopSQLite"]),
    ],
    traits: [
        .trait(name: "AsyncHTTPClient", description: "The BackstopAsyncHTTPClient product: AsyncHTTPClient and SwiftNIO."),
        .trait(name: "Tracing", description: "The BackstopTracing product: swift-distributed-tracing."),
        .trait(
            name: "BadBackend",
            description:
                "The BadBackend product and the backstop command (with the OpenAPI trait, as they serve OpenAPI documents): Hummingbird, swift-service-lifecycle, swift-argument-parser, swift-clocks, and AsyncHTTPClient with SwiftNIO for the proxy."
        ),
        .trait(name: "OpenAPI", description: "The BackstopOpenAPI product: OpenAPIKit and Yams."),
        .trait(name: "SQLite", description: "The BackstopSQLite product: GRDB.swift, on the system's SQLite."),
        .trait(name: "Development", description: "This package's own tests: swift-clocks, swift-property-based, swift-custom-dump."),
        .default(enabledTraits: ["AsyncHTTPClient", "Tracing", "BadBackend", "OpenAPI", "SQLite", "Development"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.3.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.3.0"),
        // Tests, benchmarks and BadBackend only: apps that import Backstop never build these.
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0"),
        .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.7.3"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
        // The document parser swift-openapi-generator uses, with the same traits and Yams range.
        .package(url: "https://github.com/mattpolzin/OpenAPIKit", from: "6.1.0", traits: []),
        .package(url: "https://github.com/jpsim/Yams", "4.0.0"..<"7.0.0"),
        // The saved answers' persistent store; GRDB links the system's SQLite.
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // Only GeneratedClientTests' build plugin. A plugin usage cannot name a trait (PackageDescription
        // 6.3 has no condition for it), so this is the one package not behind one; it is used by
        // a test target only, and an app with `traits: []` does not resolve it (`.ci/run` checks
        // Examples/StudyGroups' Package.resolved). Backstop's own checkout resolves and builds it
        // with every trait set.
        .package(url: "https://github.com/apple/swift-openapi-generator", from: "1.14.3"),
    ],
    targets: [
        // Foundation only: apps that just want the decoder pay for nothing else.
        .target(name: "BackstopJSON"),
        .target(
            name: "Backstop",
            dependencies: [
                "BackstopJSON",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
            ],
            resources: [.process("Resources")]
        ),
        // StubTransport: canned answers by method and path, on the clock a test gives it.
        .target(
            name: "BackstopTesting",
            dependencies: [
                "Backstop",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ]
        ),
        // AsyncHTTPClient's transport with typed errors: NIO stays out of `Backstop` itself.
        .target(
            name: "BackstopAsyncHTTPClient",
            dependencies: [
                "Backstop",
                guarded("AsyncHTTPClient", "async-http-client", by: "AsyncHTTPClient"),
                guarded("OpenAPIAsyncHTTPClient", "swift-openapi-async-http-client", by: "AsyncHTTPClient"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                guarded("NIOCore", "swift-nio", by: "AsyncHTTPClient"),
                guarded("NIOPosix", "swift-nio", by: "AsyncHTTPClient"),
                guarded("NIOHTTP1", "swift-nio", by: "AsyncHTTPClient"),
                guarded("NIOSSL", "swift-nio-ssl", by: "AsyncHTTPClient"),
                // AsyncHTTPClient's own: its configuration's tracer is one.
                guarded("Tracing", "swift-distributed-tracing", by: "AsyncHTTPClient"),
            ]
        ),
        // Spans for Backstop's calls: swift-distributed-tracing stays out of `Backstop` itself.
        .target(
            name: "BackstopTracing",
            dependencies: [
                "Backstop",
                guarded("Tracing", "swift-distributed-tracing", by: "Tracing"),
                guarded("Instrumentation", "swift-distributed-tracing", by: "Tracing"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        // Repairs against an OpenAPI document: OpenAPIKit and Yams stay out of `Backstop` itself.
        .target(
            name: "BackstopOpenAPI",
            dependencies: [
                "Backstop",
                "BackstopJSON",
                guarded("OpenAPIKit", "OpenAPIKit", by: "OpenAPI"),
                guarded("OpenAPIKit30", "OpenAPIKit", by: "OpenAPI"),
                guarded("OpenAPIKitCompat", "OpenAPIKit", by: "OpenAPI"),
                guarded("Yams", "Yams", by: "OpenAPI"),
            ]
        ),
        // Saved answers in an SQLite file: GRDB stays out of `Backstop` itself.
        .target(
            name: "BackstopSQLite",
            dependencies: [
                "Backstop",
                guarded("GRDB", "GRDB.swift", by: "SQLite"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Named apart from the `Backstop` module so the two never clash on case-insensitive disks.
        .executableTarget(
            name: "BackstopCLI",
            dependencies: [
                "BackstopJSON",
                "Backstop",
                "BadBackend",
                // `check --openapi` and the demo's generated client; its own packages are behind the OpenAPI trait.
                "BackstopOpenAPI",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                guarded("ArgumentParser", "swift-argument-parser", by: "BadBackend"),
                guarded("ServiceLifecycle", "swift-service-lifecycle", by: "BadBackend"),
                .product(name: "Logging", package: "swift-log"),
                // The demo shows the engineers' log lines it captured.
                .product(name: "InMemoryLogging", package: "swift-log"),
                // BadBackend's clock in the demo, moved by hand so a token expires without waiting.
                guarded("Clocks", "swift-clocks", by: "BadBackend"),
            ]
        ),
        // BadBackend: heavy server packages stay in this target and the ones that test with it.
        // It serves an app's own OpenAPI document too (`backstop serve --openapi`), so the
        // BadBackend product needs the OpenAPI trait beside its own. BackstopOpenAPI is a
        // dependency only with that trait, so that BadBackend without it stops the build with
        // its own message naming both traits.
        .target(
            name: "BadBackend",
            dependencies: [
                .target(name: "BackstopOpenAPI", condition: .when(traits: ["OpenAPI"])),
                guarded("Hummingbird", "hummingbird", by: "BadBackend"),
                guarded("ServiceLifecycle", "swift-service-lifecycle", by: "BadBackend"),
                // BackstopProxy's upstream client: AsyncHTTPClient joins the BadBackend trait.
                guarded("AsyncHTTPClient", "async-http-client", by: "BadBackend"),
                guarded("NIOCore", "swift-nio", by: "BadBackend"),
                guarded("NIOHTTP1", "swift-nio", by: "BadBackend"),
                // The proxy logs credentials as Backstop's Redaction redacts them.
                "Backstop",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // Its OpenAPI document is served from OpenAPIDocumentText.swift, which
            // Scripts/generate-openapi-document.py writes from this file, so that a copied
            // `backstop` binary needs no resource bundle beside it.
            exclude: ["Resources/openapi.yaml"]
        ),
        // What the HTTP test targets share: both transports, BadBackend's codes and contracts, a
        // server per test. Only test targets depend on it, so its heavy packages stay out of the products.
        .target(
            name: "BackstopTestSupport",
            dependencies: [
                "Backstop",
                "BackstopTesting",
                "BackstopAsyncHTTPClient",
                "BadBackend",
                guarded("AsyncHTTPClient", "async-http-client", by: "AsyncHTTPClient"),
                guarded("OpenAPIAsyncHTTPClient", "swift-openapi-async-http-client", by: "AsyncHTTPClient"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                guarded("Clocks", "swift-clocks", by: "Development"),
            ],
            path: "Tests/Support"
        ),
        // Where the tests find the public corpus (JSONTestSuite, the benchmark files), which lives
        // beside the repository, not in it, and the trait that skips a test where it is absent.
        .target(name: "TestCorpus", path: "Tests/Corpus"),
        // The example app's library, Examples/StudyGroups' own sources compiled here too, so the
        // end-to-end tests run the example's code against BadBackend: one copy of the sample app.
        // Named apart from the example's module; not a product.
        .target(
            name: "StudyGroupsExample",
            dependencies: [
                "Backstop",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ],
            path: "Examples/StudyGroups/Sources/StudyGroups"
        ),
        // One call against a hostile server in a process of its own: the tests read its peak
        // memory, and survive a transport that crashes on what the server sends.
        .executableTarget(
            name: "HostileProbe",
            dependencies: [
                "Backstop",
                "BackstopAsyncHTTPClient",
                guarded("AsyncHTTPClient", "async-http-client", by: "AsyncHTTPClient"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                "BackstopTestSupport",
            ],
            path: "Tests/HostileProbe"
        ),
        // The SQLite store in a process of its own, so its tests can restart it and kill it in
        // the middle of a write.
        .executableTarget(
            name: "SQLiteStoreProbe",
            dependencies: [
                "Backstop",
                "BackstopSQLite",
            ],
            path: "Tests/SQLiteStoreProbe"
        ),
        // The SQLite store through its public API: bounds, restarts, damaged files, no secret written.
        .testTarget(
            name: "BackstopSQLiteTests",
            dependencies: [
                "Backstop",
                "BackstopSQLite",
                "BackstopTesting",
                // Only for `builtExecutable(named:)`, which finds SQLiteStoreProbe.
                "BackstopTestSupport",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                // Only to make the files a store must refuse: another program's, a later version's.
                guarded("GRDB", "GRDB.swift", by: "SQLite"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "BackstopJSONTests",
            dependencies: [
                "BackstopJSON",
                "TestCorpus",
                guarded("PropertyBased", "swift-property-based", by: "Development"),
                guarded("CustomDump", "swift-custom-dump", by: "Development"),
            ]
        ),
        .testTarget(
            name: "BackstopTests",
            dependencies: [
                "Backstop",
                "BackstopJSON",
                "BackstopTestSupport",
                .product(name: "InMemoryLogging", package: "swift-log"),
            ]
        ),
        // BadBackend over real loopback HTTP (its own resources and documents in Tests/Documents),
        // and `backstop check`, `serve` and `rehearse` in-process.
        .testTarget(
            name: "BadBackendTests",
            dependencies: [
                "BadBackend",
                "BackstopOpenAPI",
                "BackstopTestSupport",
                "BackstopCLI",
                "Backstop",
                "BackstopJSON",
                guarded("ArgumentParser", "swift-argument-parser", by: "BadBackend"),
                guarded("ServiceLifecycle", "swift-service-lifecycle", by: "BadBackend"),
                // BackstopProxy's tests: a client that streams, an upstream of their own, its log.
                guarded("AsyncHTTPClient", "async-http-client", by: "BadBackend"),
                guarded("NIOCore", "swift-nio", by: "BadBackend"),
                guarded("NIOHTTP1", "swift-nio", by: "BadBackend"),
                guarded("Hummingbird", "hummingbird", by: "BadBackend"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "Logging", package: "swift-log"),
                guarded("Clocks", "swift-clocks", by: "Development"),
            ]
        ),
        // The real client on both transports against BadBackend over loopback: every scenario.
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "Backstop",
                "StudyGroupsExample",
                "BackstopJSON",
                "BadBackend",
                "BackstopTestSupport",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                guarded("Clocks", "swift-clocks", by: "Development"),
            ]
        ),
        // Every Swift block of README.md, the DocC articles and the symbols' comments, as written
        // there (`Scripts/snippets.py --check` holds the two together), run where it can be.
        .testTarget(
            name: "DocumentationTests",
            dependencies: [
                "Backstop",
                "BackstopJSON",
                "BackstopTesting",
                "BackstopAsyncHTTPClient",
                "BackstopTracing",
                "BadBackend",
                // "Rehearsing Your Own API" runs the `backstop` commands it shows, in-process.
                "BackstopCLI",
                guarded("ArgumentParser", "swift-argument-parser", by: "BadBackend"),
                guarded("AsyncHTTPClient", "async-http-client", by: "AsyncHTTPClient"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                guarded("Clocks", "swift-clocks", by: "Development"),
            ]
        ),
        // The client and its sessions against BadBackend and both transports.
        .testTarget(
            name: "BackstopClientTests",
            dependencies: [
                "Backstop",
                "BackstopTesting",
                "BackstopAsyncHTTPClient",
                guarded("AsyncHTTPClient", "async-http-client", by: "AsyncHTTPClient"),
                guarded("NIOCore", "swift-nio", by: "AsyncHTTPClient"),
                guarded("NIOPosix", "swift-nio", by: "AsyncHTTPClient"),
                guarded("NIOHTTP1", "swift-nio", by: "AsyncHTTPClient"),
                guarded("NIOSSL", "swift-nio-ssl", by: "AsyncHTTPClient"),
                "BackstopJSON",
                "BadBackend",
                "BackstopTestSupport",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                guarded("Clocks", "swift-clocks", by: "Development"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                "BackstopTracing",
                guarded("InMemoryTracing", "swift-distributed-tracing", by: "Tracing"),
                guarded("Tracing", "swift-distributed-tracing", by: "Tracing"),
            ]
        ),
        // The OpenAPI repair engine on inline documents, and through PipelineMiddleware in memory.
        .testTarget(
            name: "BackstopOpenAPITests",
            dependencies: [
                "TestCorpus",
                "BackstopOpenAPI",
                "Backstop",
                "BackstopTesting",
                "BackstopJSON",
                "BackstopTestSupport",
                "BadBackend",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ]
        ),
        // A client generated by swift-openapi-generator's build plugin from BadBackend's own
        // openapi.yaml (a symlink), through every dirty scenario on both transports.
        .testTarget(
            name: "GeneratedClientTests",
            dependencies: [
                "Backstop",
                "BackstopJSON",
                "BackstopOpenAPI",
                "BadBackend",
                "BackstopTestSupport",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                guarded("Clocks", "swift-clocks", by: "Development"),
            ],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        // The stub transport's rules, on swift-clocks' TestClock.
        .testTarget(
            name: "BackstopTestingTests",
            dependencies: [
                "Backstop",
                "BackstopTesting",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                guarded("Clocks", "swift-clocks", by: "Development"),
            ]
        ),
    ]
)
