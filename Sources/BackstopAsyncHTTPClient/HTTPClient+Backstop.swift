#if AsyncHTTPClient
    import AsyncHTTPClient
#else
    #error("BackstopAsyncHTTPClient needs Backstop's AsyncHTTPClient trait: .package(name: \"Backstop\", …, traits: [\"AsyncHTTPClient\"])")
#endif

extension HTTPClient {
    /// A client shared by the whole process, configured as `HTTPClient.Configuration.backstop`:
    /// it hands redirects back to Backstop and fails a refused connection at once. The default of
    /// ``HTTPClientTransport/init(client:timeout:)``; like `HTTPClient.shared`, it lives as long
    /// as the process and is never shut down.
    public static let backstop = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: .backstop)
}
