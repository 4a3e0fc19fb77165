import Backstop

/// The contracts of envelope styles A, B and C, which BadBackend speaks and `check` knows by letter.
enum BuiltInContracts {
    /// Backend A: `{"statusCode":200,"message":"success","result":{"data":{…}}}`.
    static let a = EnvelopeContract(code: "statusCode", message: ["message"], payload: "result.data", success: .codes([200]))
    /// Backend B: `{"code":200,"msg":"OK","data":{…}}`.
    static let b = EnvelopeContract(code: "code", message: ["msg"], payload: "data", success: .codes([200]))
    /// Backend C: like A, but a failure moves the message to `result.message`.
    static let c = EnvelopeContract(
        code: "statusCode", message: ["message", "result.message"], payload: "result.data", success: .codes([200]))

    /// The contract named by its letter.
    static func named(_ letter: String) -> EnvelopeContract? {
        switch letter.lowercased() {
        case "a": a
        case "b": b
        case "c": c
        default: nil
        }
    }
}
