extension RecoveryReducer {
    /// The alert shown, the alerts waiting, and the requests each would retry.
    public struct State: Equatable, Sendable {
        /// An alert with the requests its retry re-sends.
        public struct Entry: Equatable, Sendable {
            /// The alert to show.
            public var alert: RecoveryAlert
            /// What its retry re-sends, each once, in the order they failed.
            public var requests: [Request]

            /// An entry for an alert and the requests its retry re-sends.
            public init(alert: RecoveryAlert, requests: [Request] = []) {
                self.alert = alert
                self.requests = requests
            }
        }

        /// The alert on screen, if any.
        public var shown: Entry?
        /// Alerts waiting to be shown, oldest first.
        public var waiting: [Entry]

        /// A state with this alert on screen and these waiting; no alert at all unless given.
        public init(shown: Entry? = nil, waiting: [Entry] = []) {
            self.shown = shown
            self.waiting = waiting
        }

        /// The alert to show, for binding to a SwiftUI `.alert`.
        public var alert: RecoveryAlert? { shown?.alert }

        mutating func raise(_ alert: RecoveryAlert, request: Request?) {
            if shown.map({ $0.alert.showsSameAs(alert) }) == true {
                shown?.add(request)
            } else if let index = waiting.firstIndex(where: { $0.alert.showsSameAs(alert) }) {
                waiting[index].add(request)
            } else {
                let entry = Entry(alert: alert, requests: request.map { [$0] } ?? [])
                if shown == nil { shown = entry } else { waiting.append(entry) }
            }
        }

        mutating func closeShown() {
            shown = waiting.isEmpty ? nil : waiting.removeFirst()
        }
    }
}

extension RecoveryReducer.State.Entry {
    mutating func add(_ request: Request?) {
        guard let request, !requests.contains(request) else { return }
        requests.append(request)
    }
}
