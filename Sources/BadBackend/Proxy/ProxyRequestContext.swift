#if BadBackend && OpenAPI
    import Hummingbird
    import NIOCore
#else
    #error(
        "BadBackend needs Backstop's BadBackend and OpenAPI traits: .package(name: \"Backstop\", …, traits: [\"BadBackend\", \"OpenAPI\"])")
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A request's context in the proxy: Hummingbird's, and the client's connection, which the
/// `reset` and `timeout` scenarios break.
@available(macOS 14, iOS 17, tvOS 17, *)
struct ProxyRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        channel = source.channel
    }

    /// Closes the client's connection at once: with a TCP reset (`SO_LINGER` of 0) when
    /// `abortively`, as a peer that crashed, else with an orderly close.
    func closeConnection(abortively: Bool) async {
        if abortively, let socket = channel as? any SocketOptionProvider {
            try? await socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).get()
        }
        try? await channel.close()
    }
}
