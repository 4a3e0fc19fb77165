import HTTPTypes

/// The authentication stage of a ``ClientPipeline``: a session that puts its credential on
/// each attempt and refreshes it.
///
/// ```swift
/// let session = AuthSession(authenticator: BackendBAuthenticator(refresher: refresher), credential: savedTokens)
/// var pipeline = ClientPipeline()
/// pipeline.authentication = .session(session)
/// ```
///
/// Keep the ``AuthSession`` to sign in and out and to watch ``AuthSession/signedOutEvents``;
/// every pipeline given the same session shares its credential and its single refresh.
public struct Authentication: Sendable {
    let stage: any AuthenticationStage

    /// Authenticates every call that requires it with `session`.
    public static func session<A: Authenticator>(_ session: AuthSession<A>) -> Authentication {
        Authentication(stage: session)
    }
}

/// What the pipeline asks of a session, whatever its authenticator.
protocol AuthenticationStage: Sendable {
    /// Whose credential a call sent now carries, for coalescing: calls that carry different
    /// ones never share an answer.
    var credentialIdentity: RequestCoalescing.Credential { get }

    /// Whose answers a call sent now saves (``SavedAnswerKey/user``); `nil` while signed out.
    var savedAnswerUser: String? { get }

    /// Removes its user's answers from `store` whenever the session signs out or another user
    /// signs in, from now on; a store given twice is kept once.
    func keepsSavedAnswers(in store: any SavedAnswerStore)

    /// Sends `request` with the current credential through `attempt`, refreshing and replaying
    /// once when the answer says the credential no longer works. `attempt` is told whose
    /// credential each attempt carries, as ``credentialIdentity`` names it.
    ///
    /// `refreshes` hears the outcome of a refresh this call starts (`succeeded`, `failed`,
    /// `interrupted`, `tooMany`).
    func authenticate(
        _ request: HTTPRequest,
        record: CallRecord,
        refreshes: (@Sendable (String) -> Void)?,
        attempt: (HTTPRequest, RequestCoalescing.Credential) async throws -> Answer
    ) async throws -> Answer
}
