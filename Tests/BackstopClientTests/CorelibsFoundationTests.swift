import BackstopTestSupport
import Foundation
import Testing

extension BackstopClient {
    /// A bug of swift-corelibs-foundation in Swift 6.3 (fixed upstream by swiftlang/swift-corelibs-foundation#5286,
    /// in Swift 6.4): a connection that closes after part of the response's head makes URLSession
    /// stop the process ("Transfer completed, but there's no response."), whatever transport uses
    /// it. Shown in a child process so that the suite survives; when this fails, the toolchain is
    /// fixed and the guarantees article's warning can go.
    @Suite("corelibs-foundation on Linux")
    struct CorelibsFoundationTests {
        #if os(Linux)
            @Test(.timeLimit(.minutes(1)))
            func urlSessionStopsTheProcessWhenTheHeadEndsEarly() async throws {
                let server = try HostileServer { connection in
                    let request = try connection.readRequest()
                    if request.target == "/probe" {
                        try connection.write("HTTP/1.1 200 OK\r\nContent-Ty")
                    } else {
                        try connection.write(
                            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 4\r\nConnection: close\r\n\r\n\"ok\"")
                    }
                }
                defer { server.stop() }
                let ended = try await HostileProbe.run("urlSession", server.url)
                #expect(ended.reason == .uncaughtSignal, "the probe ended with \(ended.status): \(ended.output)")
            }
        #endif
    }
}
