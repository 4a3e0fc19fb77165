import BackstopTestSupport
import Foundation
import Testing

extension BackstopClient {
    /// The process lives through thousands of calls cancelled at every moment, on
    /// `StreamingURLSessionTransport`; swift-openapi-urlsession's `URLSessionTransport`, which
    /// cancels its `URLSessionTask` whenever its caller is cancelled, may not on Linux
    /// (swift-corelibs-foundation#3296). Each runs in a child process (`HostileProbe
    /// cancel-stress`), so a transport that stops its process is seen, not suffered.
    @Suite("URLSession cancellation, in a child process")
    struct URLSessionCancellationTests {
        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(.timeLimit(.minutes(2)))
        func theProcessLivesOnBackstopsTransport() async throws {
            try await withBackend { _, url in
                let ended = try await HostileProbe.run(arguments: ["cancel-stress", "streaming", url.absoluteString, "3000"])
                #expect(ended.reason == .exit && ended.status == 0, "the probe ended with \(ended.status): \(ended.output)")
                #expect(ended.output.contains(#""calls": 3000"#), "\(ended.output)")
            }
        }

        #if canImport(FoundationNetworking)
            /// What the hostile-server article warns of: the stock transport trips corelibs'
            /// race between a cancellation and a task that is failing or finishing, in about one
            /// run in three of 3,000 calls here. Known and intermittent, so it does not fail the
            /// suite; when corelibs is fixed, it stops being seen.
            @available(macOS 14, iOS 17, tvOS 17, *)
            @Test(.timeLimit(.minutes(2)))
            func theStockTransportMayStopTheProcess() async throws {
                try await withBackend { _, url in
                    let ended = try await HostileProbe.run(arguments: ["cancel-stress", "stock", url.absoluteString, "3000"])
                    withKnownIssue("swift-corelibs-foundation#3296: a cancelled URLSessionTask may stop the process", isIntermittent: true)
                    {
                        #expect(ended.reason == .exit && ended.status == 0, "the probe ended with \(ended.status): \(ended.output)")
                    }
                }
            }
        #endif
    }
}
