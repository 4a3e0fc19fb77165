import Backstop
import BackstopTestSupport
import Foundation
import Testing

extension BackstopClient {
    /// `StreamingURLSessionTransport` survives calls cancelled at every moment: before their
    /// request starts, as it starts, with the head on its way, while the body streams and as the
    /// call ends; by their task, a batch at once, and by deadlines that pass at random moments.
    /// On Linux, swift-corelibs-foundation stops the process when a task is cancelled at some
    /// of those moments (issue 49: 2 runs of 3 stopped within 2,000 such calls before
    /// `DataTaskLifecycle`), so a failure here is the whole test process ending. In CI this
    /// suite also runs under ThreadSanitizer.
    @Suite("URLSession cancellation, in process", .timeLimit(.minutes(3)))
    struct URLSessionCancellationConcurrencyTests {
        static let endings: Set<String> = ["success", "transport cancelled", "transport timedOut"]

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test func callsCancelledAtEveryMomentEachEndOnceAndTheTransportGoesOn() async throws {
            try await withBackend { _, url in
                let transport = StreamingURLSessionTransport()
                let outcomes = await CancellationStress.run(2_000, to: url, on: transport)
                #expect(outcomes.values.reduce(0, +) == 2_000)
                #expect(Set(outcomes.keys).isSubset(of: Self.endings), "\(outcomes)")
                #expect(outcomes["transport cancelled", default: 0] > 0, "\(outcomes)")
                #expect(outcomes["transport timedOut", default: 0] > 0, "\(outcomes)")
                // The transport goes on: a call nobody cancels gets its answer.
                let client = makeClient(url)
                let item = try await client.send(Endpoint<Item, StudyGroupCode>(.get, "b/products/1"))
                #expect(item == .one)
            }
        }
    }
}
