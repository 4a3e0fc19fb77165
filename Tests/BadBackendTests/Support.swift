import BadBackend
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One answer as a client received it over real HTTP.
struct Fetched {
    let status: Int
    let headers: [String: String]
    let body: Data

    var text: String { String(decoding: body, as: UTF8.self) }

    func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The body as JSON objects and arrays, for asserting on single members.
    var json: Any? { try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) }

    /// The member at a dotted path, such as `data.0.id`.
    func value(at path: String) -> Any? {
        path.split(separator: ".").reduce(json) { current, key in
            if let object = current as? [String: Any] { return object[String(key)] }
            if let array = current as? [Any], let index = Int(key), array.indices.contains(index) { return array[index] }
            return nil
        }
    }
}

enum HTTP {
    /// Sends one request over loopback with URLSession, as an app would.
    static func fetch(
        _ base: URL, _ path: String, method: String = "GET", token: String? = nil, json: String? = nil, headers: [String: String] = [:]
    ) async throws -> Fetched {
        guard let url = URL(string: base.absoluteString + path) else { throw BadPath(path: path) }
        var request = URLRequest(url: url, timeoutInterval: 20)
        request.httpMethod = method
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let json {
            request.httpBody = Data(json.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw BadPath(path: path) }
        var headers: [String: String] = [:]
        for case (let name as String, let value as String) in http.allHeaderFields { headers[name.lowercased()] = value }
        return Fetched(status: http.statusCode, headers: headers, body: data)
    }

    struct BadPath: Error {
        let path: String
    }
}
