// swift-tools-version: 6.1
// Benchmarks for BackstopJSON, kept in their own package so the library itself never
// depends on ordo-one/benchmark. Run with `./compare.sh` or `swift package benchmark`.
import PackageDescription

let package = Package(
    name: "BackstopBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(name: "Backstop", path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "JSONDecoding",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "BackstopJSON", package: "Backstop"),
                .product(name: "Backstop", package: "Backstop"),
            ],
            path: "Benchmarks/JSONDecoding",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
    ]
)
