// swift-tools-version: 6.1
// A backend-B app's networking on Backstop: sign-in, a refreshing session, a feature's own
// codes, alerts and contract drift. Its tests use BackstopTesting's stub transport, no server;
// its command runs against `swift run backstop serve`.
import PackageDescription

let package = Package(
    name: "StudyGroups",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
    products: [
        .executable(name: "study-groups", targets: ["StudyGroupsCommand"])
    ],
    dependencies: [
        // This repository, two folders up. An app elsewhere writes the path to its clone, or the
        // repository's URL; `traits: []` leaves AsyncHTTPClient, Hummingbird and the rest out.
        .package(name: "Backstop", path: "../..", traits: []),
        // Already in Backstop's graph, and named here because the app names `ClientTransport`
        // (`import OpenAPIRuntime`) to hand its clients one transport: a module an app imports
        // must be its own dependency, or Xcode's explicit modules do not find it.
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
    ],
    targets: [
        .target(
            name: "StudyGroups",
            dependencies: [
                .product(name: "Backstop", package: "Backstop"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ]
        ),
        .executableTarget(
            name: "StudyGroupsCommand",
            dependencies: ["StudyGroups", .product(name: "Backstop", package: "Backstop")]
        ),
        .testTarget(
            name: "StudyGroupsTests",
            dependencies: [
                "StudyGroups",
                .product(name: "Backstop", package: "Backstop"),
                .product(name: "BackstopTesting", package: "Backstop"),
            ]
        ),
    ]
)
