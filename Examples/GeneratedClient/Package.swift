// swift-tools-version: 6.1
// A backend-B app whose client swift-openapi-generator writes from the backend's openapi.yaml,
// on Backstop's pipeline, each response repaired against that document by BackstopOpenAPI. Its
// tests use BackstopTesting's stub transport, no server; its command runs against
// `swift run backstop serve`.
import PackageDescription

let package = Package(
    name: "GeneratedClient",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .executable(name: "study-groups-api", targets: ["StudyGroupsAPICommand"])
    ],
    dependencies: [
        // This repository, two folders up; an app elsewhere writes the path to its clone, or the
        // repository's URL. The `OpenAPI` trait is BackstopOpenAPI's (OpenAPIKit and Yams); the
        // rest (AsyncHTTPClient, Hummingbird, tracing) stays out.
        .package(name: "Backstop", path: "../..", traits: ["OpenAPI"]),
        // The generated code's runtime, named because the app's code names it (`Client`'s
        // `ClientTransport`, `ClientError`): a module the app imports is its own dependency.
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        // The build plugin that writes `Client` from Sources/StudyGroupsAPI/openapi.yaml.
        .package(url: "https://github.com/apple/swift-openapi-generator", from: "1.14.3"),
    ],
    targets: [
        .target(
            name: "StudyGroupsAPI",
            dependencies: [
                .product(name: "Backstop", package: "Backstop"),
                .product(name: "BackstopOpenAPI", package: "Backstop"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ],
            // The document the generator reads is also shipped, for OpenAPIContract to read at launch.
            resources: [.copy("openapi.yaml")],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        .executableTarget(
            name: "StudyGroupsAPICommand",
            dependencies: [
                "StudyGroupsAPI",
                .product(name: "Backstop", package: "Backstop"),
                .product(name: "BackstopOpenAPI", package: "Backstop"),
            ]
        ),
        .testTarget(
            name: "StudyGroupsAPITests",
            dependencies: [
                "StudyGroupsAPI",
                .product(name: "Backstop", package: "Backstop"),
                .product(name: "BackstopTesting", package: "Backstop"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ]
        ),
    ]
)
