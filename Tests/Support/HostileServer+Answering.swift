extension HostileServer {
    /// A server that answers every request, on every connection, with the bytes `answer` makes
    /// of it: a whole response (``response(status:contentType:headerFields:body:)`` writes a
    /// well-formed one), or anything a real server would never send. Each request is recorded
    /// in ``requests`` before it is answered.
    ///
    /// ```swift
    /// let server = try HostileServer.answering { request in
    ///     HostileServer.response(status: 400, body: #"{"msg": "rejected: \#(request["authorization"] ?? "")"}"#)
    /// }
    /// defer { server.stop() }
    /// ```
    public static func answering(_ answer: @escaping @Sendable (HostileRequest) -> String) throws -> HostileServer {
        try HostileServer { connection in
            while true {
                let request = try connection.readRequest()
                try connection.write(answer(request))
            }
        }
    }

    /// A complete HTTP/1.1 response: `status`, a `Content-Type` unless nil, `headerFields` as
    /// written, and `body` with its `Content-Length`.
    public static func response(
        status: Int, contentType: String? = "application/json", headerFields: KeyValuePairs<String, String> = [:],
        body: String = ""
    ) -> String {
        var head = "HTTP/1.1 \(status) Answer\r\n"
        if let contentType { head += "Content-Type: \(contentType)\r\n" }
        for (name, value) in headerFields { head += "\(name): \(value)\r\n" }
        return head + "Content-Length: \(body.utf8.count)\r\n\r\n" + body
    }
}
