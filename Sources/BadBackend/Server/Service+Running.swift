import Foundation
import Logging

#if BadBackend && OpenAPI
    import ServiceLifecycle

    /// Runs `service` in a service group of its own while `body` uses the URL it listens on,
    /// then stops it gracefully, also when `body` throws: the one way BadBackend and
    /// BackstopProxy run for a caller.
    @available(macOS 14, iOS 17, tvOS 17, *)
    func runWhileListening<Result>(
        _ service: some Service, label: String, listening: () async throws -> URL,
        _ body: (URL) async throws -> Result
    ) async throws -> Result {
        var quiet = Logger(label: label)
        quiet.logLevel = .critical
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [service], logger: quiet))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            do {
                let result = try await body(try await listening())
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
                return result
            } catch {
                await group.triggerGracefulShutdown()
                try? await tasks.waitForAll()
                throw error
            }
        }
    }
#endif
