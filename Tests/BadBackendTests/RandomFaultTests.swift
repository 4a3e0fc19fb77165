import BackstopTestSupport
import BadBackend
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// BadBackend, like Hummingbird 2, needs macOS 14 or iOS 17: each test says so.
@Suite("Faults at random, replayed from a seed")
struct RandomFaultTests {
    static let paths = (1...3).flatMap { id in ["/b/products/\(id)", "/a/study-groups/\(id)", "/c/products"] }

    /// Sends the same requests, twice each, and returns what the server chose for each.
    @available(macOS 14, iOS 17, tvOS 17, *)
    static func run(seed: UInt64, rate: Double) async throws -> [String] {
        try await withBackend(.init(randomFaults: RandomFaults(rate: rate, seed: seed))) { backend, url in
            for path in paths + paths {
                // A fault may break the body or the connection: what matters is what the server chose.
                _ = try? await HTTP.fetch(url, path)
            }
            return await backend.requestLog.entries.map { "\($0.path) #\($0.attempt) \($0.scenario?.name ?? "clean")" }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("The same seed gives the same faults in a new run")
    func replay() async throws {
        let first = try await Self.run(seed: 42, rate: 0.5)
        let second = try await Self.run(seed: 42, rate: 0.5)
        #expect(first == second)
        #expect(first.contains { !$0.hasSuffix("clean") })
        #expect(first.contains { $0.hasSuffix("clean") })
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("The choice depends on seed, method, path and attempt only, never on order")
    func pure() {
        let faults = RandomFaults(rate: 0.5, seed: 7)
        let forward = (1...200).map { faults.fault(method: "GET", path: "/b/products/\($0 % 5)", attempt: $0 / 5) }
        let backward = (1...200).reversed().map { faults.fault(method: "GET", path: "/b/products/\($0 % 5)", attempt: $0 / 5) }
        #expect(forward == backward.reversed())
        let other = (1...200).map { RandomFaults(rate: 0.5, seed: 8).fault(method: "GET", path: "/b/products/\($0 % 5)", attempt: $0 / 5) }
        #expect(forward != other)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("The rate holds: none at 0, all at 1, about half at 0.5; only faults from the random list")
    func rate() {
        let draws = 2_000
        func count(_ rate: Double) -> Int {
            (0..<draws).filter { RandomFaults(rate: rate, seed: 3).fault(method: "GET", path: "/b/products", attempt: $0) != nil }.count
        }
        #expect(count(0) == 0)
        #expect(count(1) == draws)
        #expect((900...1100).contains(count(0.5)))
        let chosen = Set((0..<draws).compactMap { RandomFaults(rate: 1, seed: 3).fault(method: "GET", path: "/x", attempt: $0) })
        #expect(chosen == Set(Scenario.randomFaults))
        #expect(!chosen.contains(.slow))
        #expect(!chosen.contains(.burst))
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Sign-in, refresh and the catalogue are never faulted")
    func authIsSpared() async throws {
        try await withBackend(.init(randomFaults: RandomFaults(rate: 1, seed: 1))) { backend, url in
            let answer1 = try await HTTP.fetch(url, "/b/auth/sign-in", method: "POST")
            #expect(answer1.status == 200)
            let answer2 = try await HTTP.fetch(url, "/scenarios")
            #expect(answer2.status == 200)
            _ = try? await HTTP.fetch(url, "/b/products")
            let entries = await backend.requestLog.entries
            #expect(entries.map(\.path) == ["/b/auth/sign-in", "/b/products"])
            #expect(entries[0].scenario == nil)
            #expect(entries[1].scenario != nil)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("failures=N: the scenario for the first N attempts, then the clean answer")
    func failuresThenSuccess() async throws {
        try await withBackend { backend, url in
            let statuses = try await (1...4).asyncMap { _ in
                try await HTTP.fetch(url, "/scenarios/http-503/b/products/1?failures=2").status
            }
            #expect(statuses == [503, 503, 200, 200])
            #expect(await backend.requestLog.entries.map(\.attempt) == [1, 2, 3, 4])
        }
    }
}

extension Sequence {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
