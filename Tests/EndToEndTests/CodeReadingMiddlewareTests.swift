import Backstop
import BackstopJSON
import BackstopTestSupport
import BadBackend
import Clocks
import Foundation
import Testing

/// Middlewares that read business codes parse the body before the client decodes it, and the
/// client decodes from that parse instead of parsing again. Whatever they read, the caller
/// gets what a client without them gets, and each repair is reported once.
@Suite("Middlewares that read business codes", .timeLimit(.minutes(1)), .englishMessages)
struct CodeReadingMiddlewareTests {
    /// Every scenario that answers without waiting on the server's clock.
    static let scenarios = Scenario.all.filter { $0 != .slow && $0 != .burst }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("The same outcome and repairs as without them", arguments: scenarios)
    func sameOutcome(_ scenario: Scenario) async throws {
        try await withBackend { _, url in
            let log = RepairLog()
            let client = APIClient<GeneralCode>(
                baseURL: url, contract: EnvelopeContract.b, decoder: ResilientJSONDecoder(reporter: log),
                pipeline: quietPipeline {
                    $0.generalCodes = GeneralCodeEvents()
                    $0.timeout = .seconds(30)
                },
                transport: TransportKind.asyncHTTPClient.make())
            let endpoint = Endpoint<StudyGroup, StudyGroupCode>(.get, "scenarios/\(scenario.name)/b/study-groups/7")
            let result: Result<APIResponse<StudyGroup>, StudyGroupError>
            do throws(StudyGroupError) { result = .success(try await client.response(for: endpoint)) } catch { result = .failure(error) }
            #expect(Outcome(result) == Outcome.expected(for: scenario))
            if case .success(let response) = result {
                #expect(log.repairs == response.repairs)
            }
        }
    }
}
