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
    /// One role each time an episode begins from now on, such as `maintenance`: each access is
    /// a stream of its own, so any number of observers each hear every event.
    ///
    /// Subscribe before the events you want to hear: one published while no stream is open is
    /// kept by nobody. A stream that is not read keeps only the newest 100 events. The streams
    /// end when the last copy of this value goes away.
    public var events: AsyncStream<ServerCodeRole> { broadcast.subscribe() }

    private let broadcast = EventBroadcast<ServerCodeRole>()
    /// The roles whose episode is under way, shared by every copy.
    private let ongoing = LockedValue<Set<ServerCodeRole>>([])

    /// A stage that acts on these roles; ``ServerCodeRole/maintenance`` unless given.
    ///
    /// Copies share their episodes and their events (the stage keeps them in references): every
    /// ``ClientPipeline`` given a copy of one value publishes an episode once, to the observers
    /// of any copy. Make a separate value for pipelines whose episodes are separate.
    public init(roles: Set<ServerCodeRole> = [.maintenance]) {
        self.roles = roles
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
        if begins, let role { broadcast.publish(role) }
    }
}
