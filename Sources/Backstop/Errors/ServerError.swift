/// A business failure: the server understood the request and declined it with a code.
///
/// The code is classified in order: the app's `General` codes first, then the module's
/// own codes, else ``unknown(_:message:)`` with the code as sent. A code both types
/// declare is therefore general. The server's message is kept in every case; it is shown
/// to users only when the app's catalog has no entry for the code (see ``MessageCatalog``).
public enum ServerError<General: ServerCode, Module: ServerCode>: Sendable, Hashable {
    /// A code every endpoint may return, such as an expired token.
    case general(General, message: String?)
    /// A code of the module that made the request.
    case module(Module, message: String?)
    /// A code neither type declares.
    case unknown(RawServerCode, message: String?)

    /// Classifies `code`: general, then module, then unknown.
    public init(code: RawServerCode, message: String?) {
        if let general = General(code) {
            self = .general(general, message: message)
        } else if let module = Module(code) {
            self = .module(module, message: message)
        } else {
            self = .unknown(code, message: message)
        }
    }

    /// The code as the server sent it.
    public var code: RawServerCode {
        switch self {
        case .general(let code, _): code.code
        case .module(let code, _): code.code
        case .unknown(let code, _): code
        }
    }

    /// The server's own message, if it sent one.
    public var message: String? {
        switch self {
        case .general(_, let message), .module(_, let message), .unknown(_, let message): message
        }
    }

    /// The role its code declares, if any.
    public var role: ServerCodeRole? {
        switch self {
        case .general(let code, _): code.role
        case .module(let code, _): code.role
        case .unknown: nil
        }
    }
}
