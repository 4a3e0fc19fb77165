import BackstopTestSupport
import BadBackend
import Foundation
import Logging
import ServiceLifecycle
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// BadBackend, like Hummingbird 2, needs macOS 14 or iOS 17: each test says so.
@Suite("Starting and stopping")
struct LifecycleTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Port 0 binds a free loopback port; after stopping, connections are refused")
    func startAndStop() async throws {
        let backend = BadBackend()
        let url = try await backend.withRunning { url in
            #expect(url.host == "127.0.0.1")
            #expect((url.port ?? 0) > 0)
            let answer1 = try await HTTP.fetch(url, "/b/products")
            #expect(answer1.status == 200)
            return url
        }
        await #expect(throws: URLError.self) { _ = try await HTTP.fetch(url, "/b/products") }
        await #expect(throws: BadBackend.NotListening.self) { _ = try await backend.listening() }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Runs in a ServiceGroup and stops on graceful shutdown")
    func serviceGroup() async throws {
        let backend = BadBackend()
        let group = ServiceGroup(configuration: .init(services: [backend], logger: Logger(label: "test")))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            let url = try await backend.listening()
            let answer2 = try await HTTP.fetch(url, "/a/products/2")
            #expect(answer2.status == 200)
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A port already taken: run fails and listening says why")
    func portTaken() async throws {
        try await withBackend { _, url in
            let second = BadBackend(configuration: .init(port: url.port ?? 0))
            await #expect(throws: (any Error).self) { try await second.run() }
            await #expect(throws: BadBackend.NotListening.self) { _ = try await second.listening() }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Only loopback hosts count as loopback")
    func loopback() {
        #expect(BadBackend.Configuration().bindsLoopbackOnly)
        #expect(BadBackend.Configuration(host: "::1").bindsLoopbackOnly)
        #expect(!BadBackend.Configuration(host: "0.0.0.0").bindsLoopbackOnly)
        #expect(!BadBackend.Configuration(host: "192.168.1.20").bindsLoopbackOnly)
    }
}
