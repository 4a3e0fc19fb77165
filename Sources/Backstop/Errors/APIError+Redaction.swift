import Foundation

extension APIError {
    /// This error with the call's secrets replaced wherever it keeps text: the server's message,
    /// the body and header fields of an HTTP failure, a decoding failure's detail and excerpt, a
    /// client failure's detail, and the underlying error's text and URLs. Its `description` and
    /// `NSError` are made from what is left.
    ///
    /// The pipeline applies it to every error a call ends with, before anyone reads it.
    func redacting(_ secrets: CallSecrets) -> Self {
        switch self {
        case .transport(let failure): .transport(failure.redacting(secrets))
        case .http(let failure): .http(failure.redacting(secrets))
        case .decoding(let failure): .decoding(failure.redacting(secrets))
        case .server(let error): .server(error.redacting(secrets))
        case .client(let failure): .client(failure.redacting(secrets))
        }
    }
}

extension ServerError {
    func redacting(_ secrets: CallSecrets) -> Self {
        switch self {
        case .general(let code, let message): .general(code, message: message.map(secrets.text))
        case .module(let code, let message): .module(code, message: message.map(secrets.text))
        case .unknown(let code, let message): .unknown(code, message: message.map(secrets.text))
        }
    }
}

extension HTTPFailure {
    func redacting(_ secrets: CallSecrets) -> Self {
        var failure = self
        failure.message = message.map(secrets.text)
        failure.body = secrets.data(body)
        for index in failure.headerFields.indices {
            let field = failure.headerFields[index]
            let value = secrets.redaction.isSecret(field.name) ? Redaction.placeholder : secrets.text(field.value)
            if value != field.value { failure.headerFields[index].value = value }
        }
        return failure
    }
}

extension DecodingFailure {
    func redacting(_ secrets: CallSecrets) -> Self {
        var failure = self
        failure.detail = detail.map(secrets.text)
        failure.excerpt = secrets.excerpt(excerpt)
        return failure
    }
}

extension ClientFailure {
    func redacting(_ secrets: CallSecrets) -> Self {
        var failure = self
        failure.detail = detail.map(secrets.text)
        failure.underlying = underlying.map { $0.redacting(secrets) }
        return failure
    }
}

extension TransportFailure {
    func redacting(_ secrets: CallSecrets) -> Self {
        var failure = self
        failure.underlying = underlying.map { $0.redacting(secrets) }
        return failure
    }
}
