extension APIError {
    /// What an error thrown inside the pipeline amounts to for the caller; anything that is not
    /// Backstop's own is the transport's.
    init(thrown error: any Error) {
        let error = TransportFailure.unwrapped(error)
        switch error {
        case let error as APIError<General, Module>: self = error
        case let failure as TransportFailure:
            self =
                Task.isCancelled
                ? .transport(TransportFailure(.cancelled, underlying: failure.underlying?.error))
                : .transport(failure)
        case let failure as ClientFailure: self = .client(failure)
        case let session as AuthenticationError: self = .client(session.failure)
        // A refresh that failed transiently: the caller gets the refresh's own failure.
        case let interrupted as RefreshInterrupted:
            if let error = interrupted.error as? any RefreshFailureReading {
                self = error.converted(to: APIError<General, Module>.self)
            } else {
                self = .transport(TransportFailure(interrupted.error))
            }
        default:
            // Whatever a transport throws once its task is cancelled, the cause is the cancellation.
            if Task.isCancelled {
                self = .transport(TransportFailure(.cancelled, underlying: error))
            } else {
                self = .transport(TransportFailure(error))
            }
        }
    }
}
