#if BadBackend && OpenAPI
    import Hummingbird
#else
    #error(
        "BadBackend needs Backstop's BadBackend and OpenAPI traits: .package(name: \"Backstop\", …, traits: [\"BadBackend\", \"OpenAPI\"])")
#endif

/// A complete answer before it becomes a Hummingbird `Response`, so a fault can still break it.
struct Answer {
    var status: HTTPResponse.Status
    var contentType = "application/json; charset=utf-8"
    var body: [UInt8]
    var headers: HTTPFields = [:]

    init(status: HTTPResponse.Status = .ok, json: JSONText) {
        self.status = status
        body = Array(json.rendered.utf8)
    }

    init(status: HTTPResponse.Status, contentType: String, text: String) {
        self.status = status
        self.contentType = contentType
        body = Array(text.utf8)
    }

    init(status: HTTPResponse.Status, contentType: String, bytes: [UInt8]) {
        self.status = status
        self.contentType = contentType
        body = bytes
    }

    /// The answer as sent: its body complete and `Content-Length` matching.
    var response: Response {
        var fields = headers
        fields[.contentType] = contentType
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// The same answer with its body cut in half, as a complete HTTP message.
    var truncated: Answer {
        var answer = self
        answer.body = Array(body.prefix(body.count / 2))
        return answer
    }

    /// Headers promising the whole body, half of it, and then the connection closed.
    var closedMidBody: Response {
        var fields = headers
        fields[.contentType] = contentType
        let half = ByteBuffer(bytes: body.prefix(body.count / 2))
        return Response(
            status: status, headers: fields,
            body: ResponseBody(contentLength: body.count) { writer in
                try await writer.write(half)
                // Throwing from the body writer makes the server close the connection mid-body.
                throw ClosedOnPurpose()
            })
    }

    private struct ClosedOnPurpose: Error {}

    /// A proxy's error page, as nginx writes it.
    static let htmlErrorPage = Answer(
        status: .badGateway, contentType: "text/html; charset=utf-8",
        text: """
            <!DOCTYPE html>
            <html><head><title>502 Bad Gateway</title></head>
            <body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>
            """)

    /// For paths and methods BadBackend does not serve; not an envelope, so no client mistakes it for one.
    static func notServed(_ status: HTTPResponse.Status, _ reason: String) -> Answer {
        Answer(status: status, json: .object([("error", .string(reason)), ("see", .string("GET /scenarios"))]))
    }
}
