import BackstopJSON
import BadBackend
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The shapes of BadBackend's DocC article "Resources and their fields", as written there, and a
// test that each is what a running BadBackend serves: decoded strictly, every field named.

enum BadBackendResources {
    struct Product: Decodable {
        var id: Int  // 1, 2 or 3
        var name: String  // "iPhone 17", "AirPods", "特製商品"
        var price: Double  // 999.5, 179, 42
        var inStock: Bool
        var stock: Int  // 0 when out of stock
        var category: String  // "phone", "audio" or "gift"
        var tags: [String]  // ["new", "5g"], ["wireless"], []
    }

    struct StudyGroup: Decodable {
        var id: Int  // 7, 8, 9 in the list; the id in the path
        var name: String  // "Calculus B", "Linear Algebra", "Organic Chemistry"
        var teamCode: String  // "K7Q2", "M3X8", "R5C9"
        var role: String  // "owner" or "member"
        var memberCount: Int  // 3, 2, 4: the members' count
        var members: [Member]

        struct Member: Decodable {
            var id: Int  // 1, 2, 3 in group 7
            var nickname: String  // "Ada", "Grace", "Linus" in group 7
        }
    }

    struct Account: Decodable {
        var id: Int  // 1
        var name: String  // "Ada"
        var email: String  // "ada@example.com"
        var plan: String  // "pro"
        var groups: [Int]  // [7, 8]: study-group ids
    }

    struct Tokens: Decodable {
        var accessToken: String  // "access-1", "access-2"… in issue order
        var refreshToken: String  // "refresh-1", "refresh-2"…
        var tokenType: String  // "Bearer"
        var expiresIn: Int  // seconds: the access token lifetime, 300 unless configured
        var scopes: [String]  // ["read", "write"]
    }

    struct Echo: Decodable {
        var method: String  // "POST"
        var path: String  // "/b/echo/anything?x=1": the path and query as sent
        var headers: [String: String]  // lowercased names; repeated fields joined with ", "
        var body: JSONValue?  // a JSON body as JSON, any other body as a string, null when none
    }

    /// Backend B's success envelope around a payload.
    struct Envelope<Payload: Decodable>: Decodable {
        var code: Int
        var data: Payload
    }

    /// The payload at `path`, decoded strictly as `Payload`, and the payload as JSON objects.
    static func fetch<Payload: Decodable>(
        _ type: Payload.Type, _ url: URL, _ path: String, method: String = "GET", token: String? = nil, body: String? = nil
    ) async throws -> (value: Payload, json: Any?) {
        var request = URLRequest(url: try #require(URL(string: url.absoluteString + path)))
        request.httpMethod = method
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, _) = try await URLSession.shared.data(for: request)
        let envelope = try JSONDecoder().decode(Envelope<Payload>.self, from: data)
        let json = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) as? [String: Any]
        #expect(envelope.code == 200)
        return (envelope.data, json?["data"])
    }

    /// The stored properties' names of `value` against the keys of the object served for it.
    static func fieldNames(of value: Any, served json: Any?) -> (documented: Set<String>, served: Set<String>) {
        let documented = Set(Mirror(reflecting: value).children.compactMap(\.label))
        return (documented, Set((json as? [String: Any])?.keys.map { $0 } ?? []))
    }
}

@Suite("BadBackend's resources, as its DocC documents them")
struct BadBackendResourcesTests {
    typealias R = BadBackendResources

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("each documented shape decodes strictly from the running server and names every field it serves")
    func eachShapeIsWhatItServes() async throws {
        let backend = BadBackend()
        try await backend.withRunning { url in
            let products = try await R.fetch([R.Product].self, url, "/b/products")
            #expect(products.value.map(\.id) == [1, 2, 3])
            for (product, json) in zip(products.value, (products.json as? [Any]) ?? []) {
                let names = R.fieldNames(of: product, served: json)
                #expect(names.documented == names.served)
            }
            let product = try await R.fetch(R.Product.self, url, "/b/products/2")
            #expect(product.value.name == "AirPods" && product.value.price == 179 && product.value.tags == ["wireless"])

            let groups = try await R.fetch([R.StudyGroup].self, url, "/b/study-groups")
            #expect(groups.value.map(\.id) == [7, 8, 9])
            #expect(groups.value.map(\.name) == ["Calculus B", "Linear Algebra", "Organic Chemistry"])
            #expect(groups.value.map(\.teamCode) == ["K7Q2", "M3X8", "R5C9"])
            #expect(groups.value.map(\.memberCount) == [3, 2, 4])
            #expect(groups.value.allSatisfy { $0.memberCount == $0.members.count })
            for (group, json) in zip(groups.value, (groups.json as? [Any]) ?? []) {
                let names = R.fieldNames(of: group, served: json)
                #expect(names.documented == names.served)
            }
            let group = try await R.fetch(R.StudyGroup.self, url, "/b/study-groups/42")
            #expect(group.value.id == 42 && group.value.members.map(\.nickname) == ["Ada", "Grace", "Linus"])
            var names = R.fieldNames(of: group.value, served: group.json)
            #expect(names.documented == names.served)
            let member = ((group.json as? [String: Any])?["members"] as? [Any])?.first
            names = R.fieldNames(of: group.value.members[0], served: member)
            #expect(names.documented == names.served)

            let tokens = try await R.fetch(R.Tokens.self, url, "/b/auth/sign-in", method: "POST", body: "{}")
            #expect(tokens.value.accessToken == "access-1" && tokens.value.expiresIn == 300)
            names = R.fieldNames(of: tokens.value, served: tokens.json)
            #expect(names.documented == names.served)
            let refreshed = try await R.fetch(
                R.Tokens.self, url, "/b/auth/refresh", method: "POST", body: #"{"refreshToken":"\#(tokens.value.refreshToken)"}"#)
            #expect(refreshed.value.refreshToken == "refresh-2")

            let account = try await R.fetch(R.Account.self, url, "/b/account", token: refreshed.value.accessToken)
            #expect(account.value.groups == [7, 8])
            names = R.fieldNames(of: account.value, served: account.json)
            #expect(names.documented == names.served)

            let echo = try await R.fetch(R.Echo.self, url, "/b/echo/anything?x=1", method: "POST", body: #"{"a":1}"#)
            #expect(echo.value.method == "POST" && echo.value.path == "/b/echo/anything?x=1")
            #expect(echo.value.headers["content-type"] == "application/json")
            #expect(echo.value.body == .object(["a": .integer(1)]))
            names = R.fieldNames(of: echo.value, served: echo.json)
            #expect(names.documented == names.served)

            let sized = try await R.fetch(String.self, url, "/b/sized/5")
            #expect(sized.value == "aaaaa")
        }
    }
}
