import AsyncHTTPClient
import Backstop
import BackstopAsyncHTTPClient
import BackstopTestSupport
import BadBackend
import Clocks
import Foundation
import InMemoryLogging
import Logging
import NIOCore
import NIOHTTP1
import NIOSSL
import Testing

extension BackstopClient {
    /// AsyncHTTPClient's and SwiftNIO's errors, classified by value by `BackstopAsyncHTTPClient`.
    @Suite("AsyncHTTPClient's errors")
    struct AsyncHTTPClientErrorTests {
        @Test(
            "each error by its value",
            arguments: [
                (HTTPClientError.connectTimeout as any Error, TransportFailure.Reason.timedOut),
                (HTTPClientError.readTimeout, .timedOut),
                (HTTPClientError.writeTimeout, .timedOut),
                (HTTPClientError.getConnectionFromPoolTimeout, .timedOut),
                (HTTPClientError.tlsHandshakeTimeout, .timedOut),
                (HTTPClientError.deadlineExceeded, .timedOut),
                (ChannelError.connectTimeout(.milliseconds(10)), .timedOut),
                (HTTPClientError.remoteConnectionClosed, .connectionLost),
                (ChannelError.ioOnClosedChannel, .connectionLost),
                (ChannelError.eof, .connectionLost),
                (HTTPParserError.invalidEOFState, .connectionLost),
                (HTTPParserError.invalidCharactersUsed, .other),
                (HTTPClientError.cancelled, .cancelled),
                (CancellationError(), .cancelled),
                (IOError(errnoCode: ECONNREFUSED, reason: "connect"), .cannotConnectToHost),
                (IOError(errnoCode: ECONNRESET, reason: "read"), .connectionLost),
                (NIOSSLError.handshakeFailed(.sslError([])), .tlsFailure),
                (HTTPClientError.invalidURL, .other),
                (URLError(.notConnectedToInternet), .offline),
            ])
        func byValue(error: any Error, reason: TransportFailure.Reason) {
            let failure = TransportFailure(asyncHTTPClientError: error)
            #expect(failure.reason == reason)
            #expect(failure.underlying == UnderlyingError(error))
        }

        /// "cancelled" in an error's text says nothing: only a cancellation is one.
        @Test func anErrorThatMentionsCancellationIsNotOne() {
            struct Mentions: Error, CustomStringConvertible { var description: String { "the upload was cancelled" } }
            #expect(TransportFailure(asyncHTTPClientError: Mentions()).reason == .other)
            #expect(TransportFailure(Mentions()).reason == .other)
        }

        /// One connection to a host whose answers never come: the second call waits for the pool
        /// past the connect timeout, on AsyncHTTPClient's own clock (the shortest wait that is a
        /// wait is the test's cost). That is a timeout, and the pipeline retries it.
        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test func waitingForAPooledConnectionPastTheConnectTimeoutIsATimeoutThatIsRetried() async throws {
            var configuration = HTTPClient.Configuration.backstop
            configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 1
            configuration.timeout.connect = .milliseconds(100)
            let httpClient = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
            do {
                try await withBackend { backend, url in
                    let handler = InMemoryLogHandler.keepingDebug()
                    let client = APIClient<GeneralCode>(
                        baseURL: url, contract: EnvelopeContract.b, decoder: ResilientJSONDecoder(),
                        pipeline: quietPipeline {
                            $0.logging = RequestLogging(logger: Logger(label: "pool") { _ in handler })
                            $0.retry = .default
                            $0.clock = ImmediateClock()
                        },
                        transport: HTTPClientTransport(client: httpClient))
                    let holder = Task { await failure(of: client, Endpoint<Item, StudyGroupCode>(.get, "scenarios/slow/b/products/1")) }
                    _ = try await backend.requestLog.arrival()
                    let error = await failure(of: client, Endpoint<Item, StudyGroupCode>(.get, "b/products/2"))
                    #expect(transportReason(of: error) == .timedOut, "\(String(describing: error))")
                    guard case .transport(let failure)? = error else { return }
                    #expect(failure.underlying?.error as? HTTPClientError == .getConnectionFromPoolTimeout)
                    let line = try #require(handler.entries.last)
                    #expect(line.metadata["attempts"] == "3")
                    #expect(line.metadata["retries"] == "transport.timedOut,transport.timedOut")
                    holder.cancel()
                    _ = await holder.value
                }
            } catch {
                try await httpClient.shutdown()
                throw error
            }
            try await httpClient.shutdown()
        }
    }
}
