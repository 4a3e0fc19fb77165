/// A backend's business codes, declared as a plain `enum` with `Int` or `String` raw values.
///
/// Declare one type for the codes every endpoint may return (token expired, maintenance…)
/// and one per feature module for its own codes; ``APIError`` is generic over both:
///
/// ```swift
/// enum AppCode: Int, ServerCode {
///     case tokenExpired = 11001
///     case maintenance = 10503
///
///     var role: ServerCodeRole? {
///         switch self {
///         case .tokenExpired: .tokenExpired
///         case .maintenance: .maintenance
///         }
///     }
/// }
///
/// enum StudyGroupCode: Int, ServerCode {
///     case wrongTeamCode = 11210005
///     case classNotFound = 11210006
/// }
/// ```
///
/// Conformance needs nothing beyond the raw values: matching a ``RawServerCode`` is
/// provided for `Int` and `String` raw values. A module without codes uses ``NoModuleCodes``.
public protocol ServerCode: RawRepresentable, Sendable, Hashable {
    /// The code matching `code`, or `nil` when this type does not declare it.
    init?(_ code: RawServerCode)
    /// The code as the backend spells it.
    var code: RawServerCode { get }
    /// What Backstop should do about this code beyond reporting it; `nil` for most codes.
    var role: ServerCodeRole? { get }
}

extension ServerCode {
    public var role: ServerCodeRole? { nil }
}

extension ServerCode where RawValue == Int {
    public init?(_ code: RawServerCode) {
        guard let value = code.intValue else { return nil }
        self.init(rawValue: value)
    }

    public var code: RawServerCode { RawServerCode(rawValue) }
}

extension ServerCode where RawValue == String {
    public init?(_ code: RawServerCode) {
        self.init(rawValue: code.stringValue)
    }

    public var code: RawServerCode { RawServerCode(rawValue) }
}

/// A part a server code plays across the app, which the rest of Backstop acts on.
///
/// Usually declared by general codes: a session layer refreshes the token on
/// ``tokenExpired`` whatever module made the request.
public enum ServerCodeRole: String, Sendable, Hashable, CaseIterable {
    /// The access token expired; refreshing it may fix the request.
    case tokenExpired
    /// The user must sign in (again); retrying will not help until they do.
    case signInRequired
    /// The service is down for maintenance.
    case maintenance
    /// Too many requests; wait before retrying.
    case rateLimited
}

/// The codes of a module that declares none: every module code is unknown.
///
/// `APIError<AppCode, NoModuleCodes>` is the error of endpoints that only share the
/// app-wide codes; a `switch` over it needs no `.module` case. It also stands in for
/// the general codes of an app that has none.
public enum NoModuleCodes: ServerCode {
    public init?(rawValue: Int) { nil }
    public var rawValue: Int {
        switch self {}
    }
}
