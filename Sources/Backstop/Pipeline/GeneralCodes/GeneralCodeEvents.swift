/// The app-wide codes stage of a ``ClientPipeline``: acts on general codes in one place,
/// before the caller sees its error.
///
/// When a call's final answer carries a general code whose role is in ``roles`` (in a 200
/// envelope or with an HTTP error), ``events`` hears the role before the answer returns to
/// the caller, who still gets its own error. An episode raises one event however many calls
/// run into it: the role is published again only after an answer without it. Only final
/// answers count: an attempt that is retried is not one.
public struct GeneralCodeEvents: Sendable {
    /// The roles the app acts on app-wide.
    public var roles: Set<ServerCodeRole>
    /// One role each time an episode begins, such as `maintenance`; observe it from one place in the app.
    public let events: AsyncStream<ServerCodeRole>

    private let continuation: AsyncStream<ServerCodeRole>.Continuation
    /// The roles whose episode is under way, shared by every copy.
    private let ongoing = LockedValue<Set<ServerCodeRole>>([])

    /// A stage that acts on these roles; ``ServerCodeRole/maintenance`` unless given.
    ///
    /// Copies share one event stream: make one value and keep it where the app observes ``events``.
    public init(roles: Set<ServerCodeRole> = [.maintenance]) {
        self.roles = roles
        (events, continuation) = AsyncStream<ServerCodeRole>.makeStream()
    }

    /// Hears the role of a call's final answer.
    func observe(_ role: ServerCodeRole?) {
        let begins = ongoing.withLock { ongoing -> Bool in
            guard let role, roles.contains(role) else {
                if !ongoing.isEmpty { ongoing.removeAll() }
                return false
            }
            return ongoing.insert(role).inserted
        }
        if begins, let role { continuation.yield(role) }
    }
}
