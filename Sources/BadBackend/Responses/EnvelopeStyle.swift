/// The three envelope shapes BadBackend speaks, as described in the seed article on contracts.
///
/// - ``a``: `{"statusCode":200,"message":"success","result":{"data":…}}`; a failure keeps the
///   shape: `{"statusCode":11210005,"message":"…","result":{"data":null}}`.
/// - ``b``: `{"code":200,"msg":"OK","data":…}`; a failure is `{"code":…,"msg":"…","data":null}`.
/// - ``c``: like A on success without the message, `{"statusCode":200,"result":{"data":…}}`, but
///   a failure breaks the shape: `{"statusCode":403,"result":{"message":"…"}}`.
///
/// The style is the first segment of every resource path: `/a/products`, `/b/products`, `/c/products`.
public enum EnvelopeStyle: String, Sendable, CaseIterable {
    /// `{"statusCode":…,"message":…,"result":{"data":…}}`, failures included.
    case a
    /// `{"code":…,"msg":…,"data":…}`.
    case b
    /// A's shape without the message on success; a failure moves the message to `result.message`.
    case c

    /// The code every style uses for success.
    public static let successCode = 200

    func success(_ payload: JSONText) -> JSONText {
        switch self {
        case .a:
            .object([
                ("statusCode", .int(Self.successCode)), ("message", .string("success")),
                ("result", .object([("data", payload)])),
            ])
        case .b: .object([("code", .int(Self.successCode)), ("msg", .string("OK")), ("data", payload)])
        case .c: .object([("statusCode", .int(Self.successCode)), ("result", .object([("data", payload)]))])
        }
    }

    func failure(code: Int, message: String) -> JSONText {
        switch self {
        case .a:
            .object([
                ("statusCode", .int(code)), ("message", .string(message)),
                ("result", .object([("data", .null)])),
            ])
        case .b: .object([("code", .int(code)), ("msg", .string(message)), ("data", .null)])
        case .c: .object([("statusCode", .int(code)), ("result", .object([("message", .string(message))]))])
        }
    }
}
