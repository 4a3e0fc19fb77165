import ArgumentParser
import Backstop
import BackstopJSON
import BackstopOpenAPI
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `backstop check`: unwraps one response with a contract, so a backend team sees what an app will see.
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Unwrap one response with a contract and print what an app would see.",
        discussion: """
            SOURCE is a file holding a response body, or an http:// or https:// URL, fetched \
            with GET. The report names the contract, then the outcome: the payload's shape, or \
            the business code and message, or the HTTP error, or what broke the contract; then \
            the repairs made on the way (to the envelope and while parsing; the payload is read \
            as any JSON, so only its shape is checked), and the contract drift they make, as \
            `backstop report` prints it; --drift-report saves that report for it.

            With --openapi and --operation, the body is first repaired against that \
            operation's response schema in the OpenAPI document (3.0 or 3.1, YAML or JSON), \
            as BackstopOpenAPI repairs a generated client's responses: each field's type, \
            required fields, enum values, list elements and date-times, which a model-less \
            check cannot see. The report then says the operation's outcome and lists those \
            repairs too; --contract is optional with them.

            Limits: a URL gets --timeout seconds in all, from connecting to the body's last \
            byte, however it trickles; a file, a contract file and a URL's body are read only \
            up to --max-bytes (a body that says or turns out to be longer is refused), and only \
            regular files are read (not a FIFO, a directory or a device). Text from the \
            response, the contract file and the paths given is printed with control and \
            bidirectional characters escaped.

            Exit status: 0 when a payload came out, 1 when the app would get an error, 2 when \
            the source, the contract file or the OpenAPI document cannot be read or the drift \
            report cannot be written, 64 for bad flags.

            \(ContractFile.help)
            """
    )

    @Argument(help: "A file holding a response body, or an http(s) URL to GET.")
    var source: String

    @Option(help: "a, b or c (the envelope styles BadBackend serves), or a contract file; optional with --openapi.")
    var contract: String?

    @Option(help: "An OpenAPI document (YAML or JSON) to repair the body against; needs --operation.")
    var openapi: String?

    @Option(help: "The operation ID in the --openapi document whose response the body is.")
    var operation: String?

    @Option(help: "The HTTP status to assume for a file; a URL's own status is used.")
    var status = 200

    @Option(help: "Seconds a URL may take in all, from connecting to the last byte of its body.")
    var timeout = 10.0

    @Option(help: "The most bytes read from the file or URL, and from a contract file.")
    var maxBytes = InputFile.defaultLimit

    @Option(help: "Write the run's contract-drift report to this file, as JSON for `backstop report`.")
    var driftReport: String?

    /// Why `check` could not even look at the response: one line, exit status 2.
    struct Unreadable: Error, CustomStringConvertible {
        let description: String
    }

    func validate() throws {
        guard contract != nil || openapi != nil else { throw ValidationError("give --contract, or --openapi with --operation, or both") }
        guard (openapi == nil) == (operation == nil) else { throw ValidationError("--openapi and --operation go together") }
        guard (100...599).contains(status) else { throw ValidationError("--status must be an HTTP status, 100 to 599") }
        guard timeout > 0, timeout <= Self.longestTimeout else {
            throw ValidationError("--timeout must be more than 0 seconds and at most \(Int(Self.longestTimeout)) (a day)")
        }
        guard (1...Self.largestLimit).contains(maxBytes) else {
            throw ValidationError("--max-bytes must be from 1 to \(Self.largestLimit) (1 GiB)")
        }
    }

    /// The longest --timeout: a day.
    static let longestTimeout = 86_400.0
    /// The largest --max-bytes: 1 GiB.
    static let largestLimit = 1 << 30

    func run() async throws {
        do {
            let report = try await report()
            for line in report.lines { print(line) }
            if report.exitCode != 0 { throw ExitCode(report.exitCode) }
        } catch let failure as Unreadable {
            FileHandle.standardError.write(Data("backstop check: \(failure)\n".utf8))
            throw ExitCode(2)
        }
    }

    /// The report's lines, starting with the contract used, and the exit status they call for.
    ///
    /// - Parameter clock: What --timeout is measured on; tests give a test clock.
    func report<C: Clock<Duration>>(clock: C = ContinuousClock()) async throws(Unreadable) -> (lines: [String], exitCode: Int32) {
        let contract = try loadContract()
        let openAPI = try loadOpenAPI()
        let (received, response) = try await load(clock: clock)
        var lines: [String] = []
        var repairs: [Repair] = []
        var exitCode: Int32 = 0
        var body = received
        if let openAPI, let operation {
            let schema = OpenAPICheck(body: received, response: response, contract: openAPI, operation: operation)
            lines += schema.lines
            repairs += schema.repairs
            exitCode = schema.exitCode
            body = schema.body
        }
        if let contract, exitCode == 0 {
            let check = ResponseCheck(body: body, response: response, contract: contract)
            // A contract file's member names are its author's text: escaped like a server's.
            lines += ["contract: " + UntrustedText.escaped(contract.description)] + check.lines
            repairs += check.repairs
            exitCode = check.exitCode
        }
        // The drift a backend team would see in an app's report, had the app made this call.
        let drift = ContractDriftRecorder()
        drift.record(repairs, operation: operationName)
        let report = drift.report()
        if !report.entries.isEmpty {
            lines += ["contract drift:"] + report.table().split(separator: "\n").map { "  " + $0 }
        }
        // What the server answered may quote the URL's credentials back: printed as an app logs them.
        if let url = sourceURL {
            let redaction = Redaction()
            lines = lines.map { redaction.redacted($0, sentTo: url) }
        }
        if let driftReport {
            do {
                try JSONEncoder().encode(report).write(to: URL(fileURLWithPath: driftReport))
            } catch {
                throw Unreadable(
                    description: "cannot write the drift report to \(InputFile.quoted(driftReport)): \(error.localizedDescription)")
            }
            lines.append("drift report: " + UntrustedText.escaped(driftReport))
        }
        return (lines, exitCode)
    }

    /// How the drift report names the call: `GET` and the URL's path with identifiers written
    /// `{id}`, as an app's client names it; a file by its name.
    var operationName: String {
        // A generated client's drift is by operation ID, as PipelineMiddleware records it.
        if openapi != nil, let operation { return operation }
        guard let url = sourceURL else { return "file " + URL(fileURLWithPath: source).lastPathComponent }
        return OperationName.bounded("GET", String(url.path.drop { $0 == "/" }))
    }

    /// The source when it is an HTTP URL; `nil` for a file.
    private var sourceURL: URL? {
        guard let url = URL(string: source), url.scheme == "http" || url.scheme == "https" else { return nil }
        return url
    }

    private func loadContract() throws(Unreadable) -> EnvelopeContract? {
        guard let contract else { return nil }
        if let builtIn = BuiltInContracts.named(contract) { return builtIn }
        let data: Data
        do {
            data = try InputFile.contents(of: contract, limit: maxBytes, limitName: "--max-bytes")
        } catch {
            throw Unreadable(
                description:
                    "cannot read contract file \(InputFile.quoted(contract)): \(error.reason) (expected a, b, c or a contract file)")
        }
        do {
            return try ContractFile.contract(from: data)
        } catch {
            throw Unreadable(description: "contract file \(InputFile.quoted(contract)): \(error)")
        }
    }

    /// The --openapi document as a contract, read within --max-bytes; `nil` without --openapi.
    private func loadOpenAPI() throws(Unreadable) -> OpenAPIContract? {
        guard let openapi else { return nil }
        let data: Data
        do {
            data = try InputFile.contents(of: openapi, limit: maxBytes, limitName: "--max-bytes")
        } catch {
            throw Unreadable(description: "cannot read OpenAPI document \(InputFile.quoted(openapi)): \(error.reason)")
        }
        do {
            return try OpenAPIContract(data: data)
        } catch {
            // The document's text (names, references) is its author's: its description escapes it once.
            throw Unreadable(description: "OpenAPI document \(InputFile.quoted(openapi)): \(error.description)")
        }
    }

    private func load(clock: some Clock<Duration>) async throws(Unreadable) -> (Data, HTTPResponse) {
        guard source.hasPrefix("http://") || source.hasPrefix("https://") else {
            do {
                let data = try InputFile.contents(of: source, limit: maxBytes, limitName: "--max-bytes")
                return (data, HTTPResponse(status: HTTPResponse.Status(code: status)))
            } catch {
                throw Unreadable(description: error.description)
            }
        }
        guard let url = URL(string: source), url.host != nil else {
            throw Unreadable(description: "\(InputFile.quoted(source)) is not a valid URL")
        }
        let (data, http) = try await fetch(url, clock: clock)
        var fields = HTTPFields()
        for case (let name as String, let value as String) in http.allHeaderFields {
            if let fieldName = HTTPField.Name(name) { fields.append(HTTPField(name: fieldName, value: value)) }
        }
        return (data, HTTPResponse(status: HTTPResponse.Status(code: http.statusCode), headerFields: fields))
    }

    /// `GET url`, ended by the deadline --timeout sets on `clock`, whatever the server sends meanwhile.
    private func fetch(_ url: URL, clock: some Clock<Duration>) async throws(Unreadable) -> (Data, HTTPURLResponse) {
        let (limit, timeout) = (maxBytes, timeout)
        // Fixed before the request starts, so it is the same however late the timer's task runs.
        let deadline = clock.now.advanced(by: .seconds(timeout))
        typealias Outcome = Result<(Data, HTTPURLResponse), any Error>
        // nil: the deadline came first. Whichever finishes first cancels the other.
        let outcome: Outcome? = await withTaskGroup(of: Outcome?.self) { group in
            group.addTask {
                do {
                    return .success(try await BoundedDownload.response(for: url, limit: limit, idleTimeout: timeout))
                } catch {
                    return .failure(error)
                }
            }
            group.addTask {
                try? await clock.sleep(until: deadline, tolerance: nil)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        // The URL's credential-like query values stay out of the message, as they do out of an app's log.
        let shown = UntrustedText.escaped(Redaction().redacted(url: url))
        switch outcome {
        case .success(let answer)?:
            return answer
        case nil:
            throw Unreadable(description: "cannot fetch \(shown): it did not finish within \(Self.seconds(timeout)) (--timeout)")
        case .failure(BoundedDownload.Failure.tooLarge(let announced?))?:
            throw Unreadable(
                description:
                    "cannot fetch \(shown): its body is \(announced) bytes, more than the limit of \(limit) (--max-bytes raises it)")
        case .failure(BoundedDownload.Failure.tooLarge(nil))?:
            throw Unreadable(
                description: "cannot fetch \(shown): its body passed the limit of \(limit) bytes (--max-bytes raises it)")
        case .failure(BoundedDownload.Failure.notHTTP)?:
            throw Unreadable(description: "\(shown) did not answer over HTTP")
        case .failure(BoundedDownload.Failure.transfer(let error))?, .failure(let error)?:
            throw Unreadable(description: "cannot fetch \(shown): \(Self.reason(error))")
        }
    }

    /// `3 seconds`, `0.25 seconds`, `1 second`.
    private static func seconds(_ value: Double) -> String {
        let number = value == value.rounded() ? String(Int(value)) : String(value)
        return number + (value == 1 ? " second" : " seconds")
    }

    private static func reason(_ error: any Error) -> String {
        switch (error as? URLError)?.code {
        case .cannotConnectToHost?: "the connection was refused"
        case .timedOut?: "it did not answer in time"
        case .cannotFindHost?, .dnsLookupFailed?: "the host is unknown"
        case .networkConnectionLost?: "the connection was lost"
        case .notConnectedToInternet?: "there is no network"
        default: UntrustedText.escaped((error as NSError).localizedDescription)
        }
    }
}
