import ArgumentParser
import BadBackend
import Clocks
import Foundation

/// `backstop demo`: the guided tour of what Backstop does with a badly behaved backend.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "A short tour: bad payloads decoded, then an app calling a server that misbehaves on purpose.",
        discussion: """
            First, payloads decoded strictly (Foundation) and leniently (BackstopJSON) with \
            a repair report. Then BadBackend starts on a free loopback port and an app's \
            APIClient calls it, through every stage of its pipeline but the app's own \
            middlewares: envelopes A, B and C \
            succeeding and failing, a dirty payload, a module code against a general code \
            (heard once app-wide), a token expiring under parallel requests with exactly one \
            refresh, retries after 503 and 429, a total and an attempt timeout, identical calls coalesced, a slow \
            answer hedged, a burst queued by the concurrency limit, an outage opening the \
            circuit breaker, the last good answer shown while it is open, an OpenAPI document \
            rehearsed and served dirty, and a refused connection. Each step shows the app's code behind \
            it, what the app receives, what its engineers' log gets, the alert a user would \
            see, and the article to read. It ends with what to run and read next. Colour on a \
            terminal, plain text when piped or when NO_COLOR is set.
            """
    )

    func run() async throws {
        try await Self.tour(on: Terminal(), retryClock: ContinuousClock())
    }

    /// The whole tour, written to `terminal`; `retryClock` waits out retry backoffs.
    static func tour(on terminal: Terminal, retryClock: some Clock<Duration>) async throws {
        terminal.line("Backstop demo: the backend breaks its contract; the app keeps working.", .title)
        terminal.line()
        terminal.line("Part 1. The decoder: payloads decoded strictly, then leniently with a repair report.", .title)
        terminal.line("  read: \(TourArticle.backstopJSON.reference)", .dim)
        for example in DemoExample.all {
            example.show(on: terminal)
        }
        terminal.line()
        guard #available(macOS 14, iOS 17, tvOS 17, *) else {
            terminal.line("Part 2 needs macOS 14 or later: BadBackend runs on Hummingbird 2.", .note)
            return
        }
        // Token lifetimes run on a clock the tour moves by hand, so a token expires at once.
        let backendClock = TestClock<Duration>()
        let backend = BadBackend(clock: backendClock)
        let tour = try await backend.withRunning { url in
            terminal.line("Part 2. An app calls BadBackend, a real HTTP server that misbehaves on purpose, at \(url).", .title)
            terminal.line("Its APIClient logs each call, retries what is worth retrying and decodes leniently.", .dim)
            let tour = BackendTour(
                terminal: terminal, baseURL: url, backend: backend, backendClock: backendClock,
                retryClock: retryClock)
            await tour.showServedSteps()
            return tour
        }
        await tour.showRefusedConnection()
        tour.showContractDrift()
        terminal.line()
        terminal.line("Repairs and log lines are for engineers (logs, analytics), never for users; alerts are for users.", .dim)
        tour.showNextSteps()
    }
}
