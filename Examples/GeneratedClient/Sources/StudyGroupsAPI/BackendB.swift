import Backstop

/// Backend B's envelope: `{"code": 200, "msg": "OK", "data": …}`.
public let backendB = EnvelopeContract(code: "code", message: ["msg"], payload: "data", success: .codes([200]))
