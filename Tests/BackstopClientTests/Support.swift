import Backstop
import BackstopTestSupport
import BadBackend
import Foundation
import OpenAPIRuntime
import Synchronization
import Testing

/// Every suite of the client's tests, one test at a time: several measure how fast calls
/// end, which a stress test running beside them on two cores would distort.
@Suite("Backstop client", .serialized)
enum BackstopClient {}

/// A product BadBackend serves, as far as these tests read it.
struct Item: Codable, Sendable, Equatable {
    var id: Int
    var name: String

    /// BadBackend's product 1, at `b/products/1`.
    static let one = Item(id: 1, name: "iPhone 17")
}

/// The call's error, or `nil` when it succeeded.
func failure<Payload, Module>(
    of client: APIClient<GeneralCode>, _ endpoint: Endpoint<Payload, Module>
) async -> APIError<GeneralCode, Module>? {
    do {
        _ = try await client.send(endpoint)
        return nil
    } catch {
        return error
    }
}

/// Counts what reaches the transport, placed last among the middlewares.
struct AttemptCounter: ClientMiddleware {
    private final class Count: Sendable {
        let value = Mutex(0)
    }
    private let count = Count()

    var attempts: Int { count.value.withLock { $0 } }

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        count.value.withLock { $0 += 1 }
        return try await next(request, body, baseURL)
    }
}

/// The reason of a transport failure; `nil` for success and other layers.
func transportReason<General, Module>(of error: APIError<General, Module>?) -> TransportFailure.Reason? {
    guard case .transport(let failure)? = error else { return nil }
    return failure.reason
}

@available(macOS 14, iOS 17, tvOS 17, *)
extension BadBackend {
    /// The requests that reached the server at `path`, whatever their query, in arrival order.
    func requests(to path: String) async -> [LoggedRequest] {
        await requestLog.entries.filter { $0.path == path || $0.path.hasPrefix(path + "?") }
    }

    /// How many requests reached the server at `path`, whatever their query.
    func hits(_ path: String) async -> Int { await requests(to: path).count }
}
