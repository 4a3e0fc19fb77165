extension DocumentRehearsal {
    /// What the document says of a request's method and path.
    package enum Match: Sendable {
        /// The operation, with the path parameters' values by name.
        case operation(DocumentOperation, pathParameters: [String: String])
        /// No operation has this path: a 404.
        case noPath
        /// Operations have this path, with other methods: a 405.
        case wrongMethod(allowed: [String])
    }

    /// The operation `method` and `path` name: the template with the most literal segments that
    /// matches, after any of the servers' base paths. `HEAD` reads as `GET`.
    package func match(method: String, path: String) -> Match {
        var path = Substring(path)
        if let base = basePaths.first(where: { path.hasPrefix($0 + "/") || path == $0 }) { path = path.dropFirst(base.count) }
        let requested = path.split(separator: "/", omittingEmptySubsequences: true)
        var best: (operation: DocumentOperation, parameters: [String: String])?
        var allowed: [String] = []
        let method = method == "HEAD" ? "GET" : method
        for operation in operations {
            guard let parameters = operation.match(requested) else { continue }
            if operation.method != method {
                if !allowed.contains(operation.method) { allowed.append(operation.method) }
                continue
            }
            if best.map({ $0.operation.literalCount < operation.literalCount }) ?? true { best = (operation, parameters) }
        }
        if let best { return .operation(best.operation, pathParameters: best.parameters) }
        return allowed.isEmpty ? .noPath : .wrongMethod(allowed: allowed)
    }

    /// Why a request's parameters do not fit `operation`, as a server's 400 says it; `nil` when they fit.
    ///
    /// - Parameters:
    ///   - pathParameters: The path parameters' values by name, from ``match(method:path:)``.
    ///   - query: Each query item's name and value, as sent.
    package func problem(
        with operation: DocumentOperation, pathParameters: [String: String], query: [(name: String, value: String)]
    ) -> String? {
        for parameter in operation.parameters {
            switch parameter.location {
            case .path:
                guard let value = pathParameters[parameter.name] else { continue }
                if let problem = parameter.problem(with: value) { return problem }
            case .query:
                let values = query.filter { $0.name == parameter.name || $0.name == parameter.name + "[]" }.map(\.value)
                if values.isEmpty, parameter.required { return "query parameter \(parameter.name) is required" }
                if values.count > 1, !parameter.isList { return "query parameter \(parameter.name) is given \(values.count) times" }
                for value in values {
                    if let problem = parameter.problem(with: value) { return problem }
                }
            }
        }
        return nil
    }
}
