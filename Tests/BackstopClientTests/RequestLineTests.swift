import Backstop
import BackstopTestSupport
import BadBackend
import Foundation
import Testing

extension BackstopClient {
    /// The request line a client makes from an endpoint and its base URL, checked where no
    /// request leaves: a base URL without a host makes no URL, whatever the path.
    @Suite struct RequestLine {
        @Test(arguments: ["items/7", "/items/7", "files/100%zz", "spaced key"])
        func aBaseURLWithoutAHostMakesNoURL(path: String) async throws {
            let base = try #require(URL(string: "relative/base"))
            let client = APIClient<GeneralCode>(baseURL: base, contract: EnvelopeContract.b)
            let error = await failure(of: client, Endpoint<Item, StudyGroupCode>(.get, path))
            guard case .client(let failure)? = error else {
                Issue.record("expected a client failure, got \(String(describing: error))")
                return
            }
            #expect(failure.reason == .invalidURL)
        }
    }
}
