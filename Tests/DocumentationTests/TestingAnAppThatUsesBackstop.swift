import Backstop
import BadBackend
import Foundation
import Testing

// The code of the DocC article "Testing an App That Uses Backstop", as it is written there.

@Test func maintenanceShowsTheMaintenanceAlert() async throws {
    let backend = BadBackend()
    try await backend.withRunning { url in
        let client = APIClient<AppCode>(
            baseURL: url, contract: backendB,
            pipeline: ClientPipeline(logging: nil, metrics: nil, retry: .never))
        do {
            _ = try await client.send(Endpoint<StudyGroup, StudyGroupCode>(.get, "scenarios/maintenance/b/study-groups/7"))
            Issue.record("expected maintenance")
        } catch let error as AppError<StudyGroupCode> {
            let alert = try #require(RecoveryPolicy().alert(for: error, locale: Locale(identifier: "en")))
            #expect(alert.category == .unavailable)
            #expect(alert.actions.map(\.id) == [.dismiss])
        }
    }
}
