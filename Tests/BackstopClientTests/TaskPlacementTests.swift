import AsyncHTTPClient
import Backstop
import BackstopAsyncHTTPClient
import BackstopTestSupport
import Foundation
import HTTPTypes
import NIOCore
import NIOPosix
import Synchronization
import Testing

/// Where a call's attempt runs on AsyncHTTPClient: a task the call starts for it (a timeout's
/// behind a middleware, hedging's) goes on running on the event loop that answered it, except to
/// parse a large answer; the caller's task, which decodes the payload, stays on the global
/// executor. With nothing in front of the transport, a timed or hedged call runs its (first)
/// attempt in the caller's task: AsyncHTTPClient's delegate API keeps the deadline to the body's
/// end, and the race can cancel its exchange from outside.
@Suite struct TaskPlacementTests {
    /// Notes, each time the client reads an envelope, whether it runs on an event loop: first
    /// in the attempt (the answer's codes), then in the caller's task (the payload's decode).
    final class PlacementRecordingContract: ResponseContract {
        private let readings = Mutex<[Bool]>([])
        var description: String { "the whole body is the payload" }

        func envelope(of body: ParsedJSON?, status: HTTPResponse.Status) throws(DecodingFailure) -> Envelope {
            let onEventLoop = MultiThreadedEventLoopGroup.currentEventLoop != nil
            readings.withLock { $0.append(onEventLoop) }
            return Envelope(.success(payloadAt: .root))
        }

        /// Whether each read ran on an event loop, in the order they ran.
        var onEventLoop: [Bool] { readings.withLock { $0 } }
    }

    /// A server answering every request with a JSON array of `count` strings of 50 letters.
    private static func server(strings count: Int) throws -> HostileServer {
        let body = "[" + repeatElement(#""\#(String(repeating: "a", count: 50))""#, count: count).joined(separator: ",") + "]"
        return try HostileServer.answering { _ in HostileServer.response(status: 200, body: body) }
    }

    private static func call(_ server: HostileServer, pipeline: ClientPipeline) async throws -> (strings: Int, onEventLoop: [Bool]) {
        let contract = PlacementRecordingContract()
        let client = APIClient<NoModuleCodes>(
            baseURL: server.url, contract: contract, pipeline: pipeline, transport: TransportKind.asyncHTTPClient.make())
        let strings = try await client.send(Endpoint<[String], NoModuleCodes>(.get, "strings"))
        return (strings.count, contract.onEventLoop)
    }

    /// A timed pipeline with a middleware in front of the transport: a middleware may outlive
    /// the deadline, so the call runs in a task the deadline cancels.
    private static var timedBehindAMiddleware: ClientPipeline {
        var pipeline = ClientPipeline(logging: nil, metrics: nil)
        pipeline.middlewares = [AttemptCounter()]
        return pipeline
    }

    @Test func aTimedCallBehindAMiddlewareReadsASmallAnswerOnTheEventLoopThatAnsweredIt() async throws {
        let server = try Self.server(strings: 10)
        defer { server.stop() }
        let (strings, onEventLoop) = try await Self.call(server, pipeline: Self.timedBehindAMiddleware)
        #expect(strings == 10)
        #expect(onEventLoop == [true, false])
    }

    @Test func aLargeAnswerIsParsedOffTheEventLoop() async throws {
        let server = try Self.server(strings: 2_000)
        defer { server.stop() }
        let (strings, onEventLoop) = try await Self.call(server, pipeline: Self.timedBehindAMiddleware)
        #expect(strings == 2_000)
        #expect(onEventLoop == [false, false])
    }

    /// Authentication may wait on a refresh, which runs the app's own code: a timed call that
    /// needs it runs in a task the deadline cancels, even with nothing else in front of the transport.
    @Test func aTimedCallThatWaitsOnAuthenticationReadsItsAnswerOnTheEventLoop() async throws {
        let server = try Self.server(strings: 10)
        defer { server.stop() }
        var pipeline = ClientPipeline(logging: nil, metrics: nil)
        pipeline.authentication = .session(AuthSession(authenticator: BearerAuthenticator(), credential: "one"))
        let (strings, onEventLoop) = try await Self.call(server, pipeline: pipeline)
        #expect(strings == 10)
        #expect(onEventLoop == [true, false])
    }

    @Test func aTimedCallWithNothingInFrontOfTheTransportRunsInTheCallersTask() async throws {
        let server = try Self.server(strings: 10)
        defer { server.stop() }
        let (strings, onEventLoop) = try await Self.call(server, pipeline: ClientPipeline(logging: nil, metrics: nil))
        #expect(strings == 10)
        #expect(onEventLoop == [false, false])
    }

    /// The transport can end the first attempt from outside when a hedge wins, so it needs no task.
    @Test func aHedgedCallWithNothingInFrontOfTheTransportRunsItsFirstAttemptInTheCallersTask() async throws {
        let server = try Self.server(strings: 10)
        defer { server.stop() }
        var pipeline = ClientPipeline(logging: nil, metrics: nil, timeout: nil)
        pipeline.hedging = Hedging(delay: .seconds(60))
        let (strings, onEventLoop) = try await Self.call(server, pipeline: pipeline)
        #expect(strings == 10)
        #expect(onEventLoop == [false, false])
    }

    @Test func aHedgedCallBehindAMiddlewareReadsItsAnswerOnTheEventLoopThatAnsweredIt() async throws {
        let server = try Self.server(strings: 10)
        defer { server.stop() }
        var pipeline = Self.timedBehindAMiddleware
        pipeline.timeout = nil
        pipeline.hedging = Hedging(delay: .seconds(60))
        let (strings, onEventLoop) = try await Self.call(server, pipeline: pipeline)
        #expect(strings == 10)
        #expect(onEventLoop == [true, false])
    }

    @Test func aCallWithoutATaskOfItsOwnRunsInTheCallersTask() async throws {
        let server = try Self.server(strings: 10)
        defer { server.stop() }
        let (strings, onEventLoop) = try await Self.call(server, pipeline: ClientPipeline(logging: nil, metrics: nil, timeout: nil))
        #expect(strings == 10)
        #expect(onEventLoop == [false, false])
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func theExecutorRunsAJobOnTheEventLoopThatEnqueuedItAndAnyOtherOnTheGlobalExecutor() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        // A task's first job is enqueued by the thread that makes the task.
        let fromTheLoop = await withCheckedContinuation { continuation in
            loop.execute {
                Task(executorPreference: EventLoopTaskExecutor.shared) { continuation.resume(returning: loop.inEventLoop) }
            }
        }
        let fromElsewhere = await Task(executorPreference: EventLoopTaskExecutor.shared) {
            MultiThreadedEventLoopGroup.currentEventLoop != nil
        }.value
        try await group.shutdownGracefully()
        #expect(fromTheLoop)
        #expect(!fromElsewhere)
    }
}
