import Backstop
import BackstopJSON
import BackstopTestSupport
import BadBackend
import Foundation
import MetricsTestKit
import Testing

extension BackstopClient {
    /// The recorder shared by many calls at once; CI runs this suite under ThreadSanitizer.
    @Suite("Contract drift, concurrently", .timeLimit(.minutes(1)))
    struct ContractDriftConcurrencyTests {
        @Test("1,000 calls recording at once count exactly")
        func thousandRecordersAtOnce() async {
            let recorder = ContractDriftRecorder(metricsFactory: TestMetrics())
            let repairs = [
                Repair(path: "$.data[0].id", expected: "Int", found: .init(kind: .string, excerpt: #""1""#), action: .coerced),
                Repair(path: "$.data[1].id", expected: "Int", found: .init(kind: .string, excerpt: #""2""#), action: .coerced),
                Repair(path: "$.data.name", expected: "String", found: .init(kind: .null, excerpt: "null"), action: .defaultedBecauseNull),
            ]
            await withTaskGroup(of: Void.self) { group in
                for call in 0..<1_000 {
                    group.addTask { recorder.record(repairs, operation: call.isMultiple(of: 2) ? "GET a" : "GET b") }
                }
            }
            let counts = recorder.report().entries.map { "\($0.operation) \($0.path) \($0.count)" }.sorted()
            #expect(counts == ["GET a $.data.name 500", "GET a $.data[*].id 1000", "GET b $.data.name 500", "GET b $.data[*].id 1000"])
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func twoHundredCallsAtOnceThroughTheClient(transport: TransportKind) async throws {
            try await withBackend { _, url in
                let recorder = ContractDriftRecorder(metricsFactory: TestMetrics())
                let client = makeClient(url, transport, pipeline: quietPipeline { $0.contractDrift = recorder })
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<200 { group.addTask { _ = try await client.send(ContractDriftTests.dirty) } }
                    try await group.waitForAll()
                }
                #expect(recorder.report().entries.map(\.count) == [600, 200, 200])
            }
        }
    }
}
