/// A pair of tokens BadBackend issued at sign-in or refresh.
struct IssuedTokens: Sendable {
    let access: String
    let refresh: String
    let lifetimeSeconds: Int
}
