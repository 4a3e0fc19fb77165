import HTTPTypes

extension ClientPipeline {
    /// The secrets of a call by ``redaction``: those of `request` as made, and those its stages
    /// recorded, such as the credential the session applied.
    func secrets(of request: HTTPRequest?, record: CallRecord) -> CallSecrets {
        CallSecrets(redaction, request: request, known: record.secrets)
    }

    /// `error` as the caller gets it: with the call's secrets replaced (see ``APIError/redacting(_:)``).
    func redacted<General, Module>(
        _ error: APIError<General, Module>, request: HTTPRequest?, record: CallRecord
    ) -> APIError<General, Module> {
        error.redacting(secrets(of: request, record: record))
    }

    /// An error a generated client's caller gets, with the call's secrets replaced: Backstop's own
    /// failures keep their type; any other error whose text holds a secret becomes an `NSError`
    /// of its domain and code.
    func redacted(surfaced error: any Error, request: HTTPRequest?, record: CallRecord) -> any Error {
        let secrets = secrets(of: request, record: record)
        switch error {
        case let failure as TransportFailure: return failure.redacting(secrets)
        case let failure as ClientFailure: return failure.redacting(secrets)
        case let session as AuthenticationError: return AuthenticationError(session.failure.redacting(secrets))
        case let error as any SecretRedacting: return error.redacting(secrets)
        default: return UnderlyingError(error).redacting(secrets).error
        }
    }
}

/// An error that can replace the secrets it keeps: every `APIError`.
protocol SecretRedacting: Error {
    func redacting(_ secrets: CallSecrets) -> Self
}

extension APIError: SecretRedacting {}
