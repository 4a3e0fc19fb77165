extension StubTransport {
    /// A request the stub transport cannot answer, or requests that did not arrive: the test's
    /// set-up and the app disagree.
    public struct Unexpected: Error, Sendable, CustomStringConvertible {
        /// What was expected and what happened, with the request's method and path.
        public let description: String
    }
}
