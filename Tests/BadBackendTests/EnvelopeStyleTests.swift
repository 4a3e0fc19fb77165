import BackstopTestSupport
import BadBackend
import Testing

// BadBackend, like Hummingbird 2, needs macOS 14 or iOS 17: each test says so.
@Suite("Envelope styles A, B and C over HTTP")
struct EnvelopeStyleTests {
    static let product = #"{"id":1,"name":"iPhone 17","price":999.5,"inStock":true,"stock":12,"category":"phone","tags":["new","5g"]}"#

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Success: each style wraps the same product its own way")
    func success() async throws {
        try await withBackend { _, url in
            let a = try await HTTP.fetch(url, "/a/products/1")
            let b = try await HTTP.fetch(url, "/b/products/1")
            let c = try await HTTP.fetch(url, "/c/products/1")
            #expect(a.text == #"{"statusCode":200,"message":"success","result":{"data":\#(Self.product)}}"#)
            #expect(b.text == #"{"code":200,"msg":"OK","data":\#(Self.product)}"#)
            #expect(c.text == #"{"statusCode":200,"result":{"data":\#(Self.product)}}"#)
            for answer in [a, b, c] {
                #expect(answer.status == 200)
                #expect(answer.header("Content-Type") == "application/json; charset=utf-8")
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Failure: A and B keep their shape, C breaks it")
    func failure() async throws {
        try await withBackend { _, url in
            let path = "/study-groups/7"
            let a = try await HTTP.fetch(url, "/scenarios/wrong-team-code/a" + path)
            let b = try await HTTP.fetch(url, "/scenarios/wrong-team-code/b" + path)
            let c = try await HTTP.fetch(url, "/scenarios/wrong-team-code/c" + path)
            #expect(a.text == #"{"statusCode":11210005,"message":"Wrong team code","result":{"data":null}}"#)
            #expect(b.text == #"{"code":11210005,"msg":"Wrong team code","data":null}"#)
            #expect(c.text == #"{"statusCode":11210005,"result":{"message":"Wrong team code"}}"#)
            #expect([a, b, c].map(\.status) == [200, 200, 200])
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Every resource answers in every style", arguments: EnvelopeStyle.allCases)
    func resources(style: EnvelopeStyle) async throws {
        try await withBackend { _, url in
            let payloadPath = style == .b ? "data" : "result.data"
            let list = try await HTTP.fetch(url, "/\(style.rawValue)/products")
            #expect((list.value(at: payloadPath) as? [Any])?.count == 3)
            let group = try await HTTP.fetch(url, "/\(style.rawValue)/study-groups/7")
            #expect(group.value(at: payloadPath + ".name") as? String == "Calculus B")
            #expect((group.value(at: payloadPath + ".members") as? [Any])?.count == 3)
            let missing = try await HTTP.fetch(url, "/\(style.rawValue)/products/9")
            #expect(missing.status == 404)
            #expect(missing.value(at: style == .b ? "code" : "statusCode") as? Int == 40400)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Paths outside the routes are a 404 that names the catalogue, not an envelope")
    func unknownPaths() async throws {
        try await withBackend { _, url in
            for path in ["/d/products", "/b/widgets", "/scenarios/nonsense/b/products", "/b/products/one"] {
                let answer = try await HTTP.fetch(url, path)
                #expect(answer.status == 404, "\(path)")
                #expect(answer.value(at: "see") as? String == "GET /scenarios", "\(path)")
            }
            let wrongMethod = try await HTTP.fetch(url, "/b/products", method: "DELETE")
            #expect(wrongMethod.status == 405)
        }
    }
}
