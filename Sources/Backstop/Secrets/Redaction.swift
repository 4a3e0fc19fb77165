import Foundation
import HTTPTypes

/// What is secret in a call, defined once for every place its text goes: the log line and its
/// metadata, the error the caller gets (its `description` and its `NSError`, underlying errors
/// included), span attributes and contract drift samples.
///
/// ```swift
/// var pipeline = ClientPipeline()
/// pipeline.redaction.headerFields.insert(HTTPField.Name("X-Api-Key")!)
/// pipeline.redaction.queryItems.insert("ticket")
/// ```
///
/// The rules:
/// - The values of ``alwaysSecretHeaderFields`` (`Authorization`, `Proxy-Authorization`,
///   `Cookie`, `Set-Cookie`) and of ``headerFields`` are secret, on the request and on the
///   response an error keeps; so is each part of such a value after its scheme
///   (`Bearer <token>`'s token) and each cookie's value.
/// - The credential the session applied is secret whatever the ``Authenticator``: the values
///   of the header fields and query items its `apply` set or changed, and its
///   ``Authenticator/secrets(of:)``.
/// - The values of query items named in ``queryItems`` are secret; names are compared without
///   regard to case, on the path as it is sent (percent-decoded), so a value with `+`, `=`, `&`
///   or spaces is found however it was encoded. ``defaultQueryItems`` lists the default names.
/// - A secret is replaced by ``placeholder`` wherever its text appears: as sent, percent-decoded,
///   percent-encoded, form-encoded and JSON-escaped. In a URL the placeholder is percent-encoded.
/// - Text is redacted before it is cut: a description's excerpt of a body is taken from the body
///   with its secrets already replaced; text that was cut before (a decoding failure's excerpt)
///   also loses a trailing start of a secret, 4 characters or more.
/// - Values shorter than 4 characters are replaced where they are named (a header field's value,
///   a query item's value in a path) but not searched for in other text, where every digit of
///   `?key=1` would go.
public struct Redaction: Sendable, Hashable {
    /// Header fields whose values are secret, besides ``alwaysSecretHeaderFields``.
    public var headerFields: Set<HTTPField.Name>
    /// The names of query items whose values are secret, compared without regard to case;
    /// ``defaultQueryItems`` unless the app changes them.
    public var queryItems: Set<String>

    /// `Authorization`, `Proxy-Authorization`, `Cookie` and `Set-Cookie`: secret in every pipeline.
    public static let alwaysSecretHeaderFields: Set<HTTPField.Name> = [.authorization, .proxyAuthorization, .cookie, .setCookie]

    /// The query items secret by default: `access_token`, `refresh_token`, `id_token`, `token`,
    /// `api_key`, `apikey`, `key`, `client_secret`, `secret`, `password`, `passwd`, `signature`,
    /// `sig`, `auth`, `session`, `sessionid`, `x-amz-signature`, `x-amz-credential` and
    /// `x-amz-security-token`.
    public static let defaultQueryItems: Set<String> = [
        "access_token", "refresh_token", "id_token", "token", "api_key", "apikey", "key", "client_secret", "secret",
        "password", "passwd", "signature", "sig", "auth", "session", "sessionid", "x-amz-signature",
        "x-amz-credential", "x-amz-security-token",
    ]

    /// What stands for a secret value: `<redacted>`.
    public static var placeholder: String { "<redacted>" }

    /// A definition of secrets; the arguments add to the ones every pipeline has.
    ///
    /// - Parameters:
    ///   - headerFields: Header fields whose values are secret, besides ``alwaysSecretHeaderFields``.
    ///   - queryItems: Names of query items whose values are secret.
    public init(headerFields: Set<HTTPField.Name> = [], queryItems: Set<String> = defaultQueryItems) {
        self.headerFields = headerFields
        self.queryItems = queryItems
    }

    /// `url` as a tool may print it: the values of its secret query items replaced by the
    /// percent-encoded placeholder (`?access_token=%3Credacted%3E`).
    package func redacted(url: URL) -> String {
        CallSecrets(self, request: Self.request(for: url)).urlText(url.absoluteString)
    }

    /// `text` (such as what a server answered to a request sent to `url`) with the values of
    /// `url`'s secret query items replaced, however encoded, before any of it is cut.
    package func redacted(_ text: String, sentTo url: URL) -> String {
        let secrets = CallSecrets(self, request: Self.request(for: url))
        return secrets.text(text)
    }

    private static func request(for url: URL) -> HTTPRequest {
        var path = url.path.isEmpty ? "/" : url.path
        if let query = URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedQuery { path += "?" + query }
        return HTTPRequest(method: .get, scheme: nil, authority: nil, path: path)
    }

    /// Whether the values of `name` are secret.
    package func isSecret(_ name: HTTPField.Name) -> Bool {
        Self.alwaysSecretHeaderFields.contains(name) || headerFields.contains(name)
    }

    /// Whether the values of the query item `name` (percent-decoded) are secret.
    func isSecretQueryItem(_ name: some StringProtocol) -> Bool {
        let lowered = name.lowercased()
        return queryItems.contains(lowered) || queryItems.contains { $0.lowercased() == lowered }
    }
}
