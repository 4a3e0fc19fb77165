// swift-tools-version: 6.0
import PackageDescription

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
        // AsyncHTTPClient's transport with typed errors: NIO stays out of `Backstop` itself.
        .target(
            name: "BackstopAsyncHTTPClient",
            dependencies: [
                "Backstop",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // Spans for Backstop's calls: swift-distributed-tracing stays out of `Backstop` itself.
        .target(
            name: "BackstopTracing",
            dependencies: [
                "Backstop",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        // Named apart from the `Backstop` module so the two never clash on case-insensitive disks.
        .executableTarget(
            name: "BackstopCLI",
            dependencies: [
                "BackstopJSON",
                "Backstop",
                "BadBackend",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                // The demo shows the engineers' log lines it captured.
                .product(name: "InMemoryLogging", package: "swift-log"),
                // BadBackend's clock in the demo, moved by hand so a token expires without waiting.
                .product(name: "Clocks", package: "swift-clocks"),
            ]
        ),
        // BadBackend: heavy server packages stay in this target and the ones that test with it.
        .target(
            name: "BadBackend",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // What the HTTP test targets share: both transports, BadBackend's codes and contracts, a
        // server per test. Only test targets depend on it, so its heavy packages stay out of the products.
        .target(
            name: "BackstopTestSupport",
            dependencies: [
                "Backstop",
                "BackstopAsyncHTTPClient",
                "BadBackend",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "Clocks", package: "swift-clocks"),
            ],
            path: "Tests/Support"
        ),
        // One call against a hostile server in a process of its own: the tests read its peak
        // memory, and survive a transport that crashes on what the server sends.
        .executableTarget(
            name: "HostileProbe",
            dependencies: [
                "Backstop",
                "BackstopAsyncHTTPClient",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ],
            path: "Tests/HostileProbe"
        ),
        .testTarget(
            name: "BackstopJSONTests",
            dependencies: [
                "BackstopJSON",
                .product(name: "PropertyBased", package: "swift-property-based"),
                .product(name: "CustomDump", package: "swift-custom-dump"),
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
        // BadBackend over real loopback HTTP, and `backstop check` in-process.
        .testTarget(
            name: "BadBackendTests",
            dependencies: [
                "BadBackend",
                "BackstopTestSupport",
                "BackstopCLI",
                "Backstop",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Clocks", package: "swift-clocks"),
            ]
        ),
        // The real client on both transports against BadBackend over loopback: every scenario.
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "Backstop",
                "BackstopJSON",
                "BadBackend",
                "BackstopTestSupport",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "Clocks", package: "swift-clocks"),
            ]
        ),
        // Every Swift block of README.md, the DocC articles and the symbols' comments, as written
        // there (`Scripts/snippets.py --check` holds the two together), run where it can be.
        .testTarget(
            name: "DocumentationTests",
            dependencies: [
                "Backstop",
                "BackstopJSON",
                "BackstopAsyncHTTPClient",
                "BackstopTracing",
                "BadBackend",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "Clocks", package: "swift-clocks"),
            ]
        ),
        // The client and its sessions against BadBackend and both transports.
        .testTarget(
            name: "BackstopClientTests",
            dependencies: [
                "Backstop",
                "BackstopAsyncHTTPClient",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                "BackstopJSON",
                "BadBackend",
                "BackstopTestSupport",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                "BackstopTracing",
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
    ]
)
