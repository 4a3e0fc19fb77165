extension ClientFailure.Reason {
    /// The circuit of the host (or operation) is open: the call failed without touching the
    /// network; ``ClientFailure/retryAfter`` says when a call may go through.
    public static let circuitOpen = Self("circuitOpen", code: 9)
}
