import Backstop
import BackstopJSON
import Foundation
import Testing

// The code of the DocC article "Telling Your Backend Team What's Broken", as it is written there.

func recordTheDrift() throws -> APIClient<AppCode> {
    let drift = ContractDriftRecorder()
    var pipeline = ClientPipeline()
    pipeline.contractDrift = drift
    let client = APIClient<AppCode>(baseURL: baseURL, contract: backendB, pipeline: pipeline)

    let report = drift.report()
    try JSONEncoder().encode(report).write(to: reportURL)
    drift.reset()
    return client
}

@Test("a decoder that reports to the drift recorder records under the decoded type")
func driftWithoutAClient() throws {
    let drift = ContractDriftRecorder()
    let decoder = ResilientJSONDecoder(reporter: drift)
    _ = try decoder.decode(User.self, from: Data(#"{"id": "42", "name": "Ada"}"#.utf8))
    #expect(drift.report().entries.map(\.path) == ["$.id"])
}
