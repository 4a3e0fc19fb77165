import Foundation

/// Whether a server (BadBackend, BackstopProxy) listens yet, for callers waiting for its address.
@available(macOS 14, iOS 17, tvOS 17, *)
actor Listener {
    /// The server's name, for the reasons it gives.
    private let name: String
    private var result: Swift.Result<URL, BadBackend.NotListening>?
    private var waiters: [CheckedContinuation<Swift.Result<URL, BadBackend.NotListening>, Never>] = []

    init(name: String) {
        self.name = name
    }

    func bound(host: String, port: Int) {
        let authority = host.contains(":") ? "[\(host)]" : host
        guard result == nil else { return }
        if let url = URL(string: "http://\(authority):\(port)") {
            finish(.success(url))
        } else {
            finish(.failure(BadBackend.NotListening(description: "\(name) bound \(host):\(port), which makes no URL")))
        }
    }

    func stopped(because reason: String) {
        finish(.failure(BadBackend.NotListening(description: "\(name) is not listening: \(reason)")))
    }

    func url() async throws(BadBackend.NotListening) -> URL {
        let outcome: Swift.Result<URL, BadBackend.NotListening>
        if let result { outcome = result } else { outcome = await withCheckedContinuation { waiters.append($0) } }
        return try outcome.get()
    }

    private func finish(_ outcome: Swift.Result<URL, BadBackend.NotListening>) {
        // A server that has stopped is not listening, whatever it did before.
        result = outcome
        for waiter in waiters { waiter.resume(returning: outcome) }
        waiters = []
    }
}
