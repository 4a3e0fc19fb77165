import Backstop
import Foundation
import HTTPTypes
import Testing

extension BackstopClient {
    /// Where both transports send a request: its path and query appended to the base URL's path,
    /// as swift-openapi's transports join them, whichever way the join is computed.
    @Suite("Request URL")
    struct RequestURL {
        @Test(arguments: [
            ("http://127.0.0.1:8080", "/items/7", "http://127.0.0.1:8080/items/7"),
            ("http://127.0.0.1:8080/v1", "/items/7?page=2&q=%20", "http://127.0.0.1:8080/v1/items/7?page=2&q=%20"),
            // Appended as text, as swift-openapi does: a base ending in a slash keeps it.
            ("https://api.example.com/v1/", "/items", "https://api.example.com/v1//items"),
            ("https://user@api.example.com:8443/v1", "/a%2Fb", "https://user@api.example.com:8443/v1/a%2Fb"),
            // The base's query gives way to the request's; a fragment is never sent.
            ("https://api.example.com/v1?key=1", "/items?page=2", "https://api.example.com/v1/items?page=2"),
            ("https://api.example.com/v1?key=1", "/items", "https://api.example.com/v1/items"),
            ("https://api.example.com/v1", "/items#top", "https://api.example.com/v1/items"),
        ])
        func theRequestsPathAndQueryFollowTheBaseURLsPath(base: String, path: String, expected: String) throws {
            let baseURL = try #require(URL(string: base))
            let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: path)
            #expect(try request.url(relativeTo: baseURL).absoluteString == expected)
        }

        @Test func aBaseRelativeToAnotherIsResolvedFirst() throws {
            let root = try #require(URL(string: "https://api.example.com/"))
            let baseURL = try #require(URL(string: "v2", relativeTo: root))
            let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/items")
            #expect(try request.url(relativeTo: baseURL).absoluteString == "https://api.example.com/v2/items")
        }
    }
}
