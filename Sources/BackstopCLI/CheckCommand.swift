import ArgumentParser
import Backstop
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

            Exit status: 0 when a payload came out, 1 when the app would get an error, 2 when \
            the source or the contract file cannot be read or the drift report cannot be \
            written, 64 for bad flags.

            \(ContractFile.help)
            """
    )

    @Argument(help: "A file holding a response body, or an http(s) URL to GET.")
    var source: String

    @Option(help: "a, b or c (the envelope styles BadBackend serves), or a contract file.")
    var contract: String

    @Option(help: "The HTTP status to assume for a file; a URL's own status is used.")
    var status = 200

    @Option(help: "Seconds to wait for a URL before giving up.")
    var timeout = 10.0

    @Option(help: "Write the run's contract-drift report to this file, as JSON for `backstop report`.")
    var driftReport: String?

    /// Why `check` could not even look at the response: one line, exit status 2.
    struct Unreadable: Error, CustomStringConvertible {
        let description: String
    }

    func validate() throws {
        guard (100...599).contains(status) else { throw ValidationError("--status must be an HTTP status, 100 to 599") }
        guard timeout > 0 else { throw ValidationError("--timeout must be more than 0 seconds") }
    }

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
    func report() async throws(Unreadable) -> (lines: [String], exitCode: Int32) {
        let contract = try loadContract()
        let (body, response) = try await load()
        let check = ResponseCheck(body: body, response: response, contract: contract)
        var lines = ["contract: \(contract)"] + check.lines
        // The drift a backend team would see in an app's report, had the app made this call.
        let drift = ContractDriftRecorder()
        drift.record(check.repairs, operation: operationName)
        let report = drift.report()
        if !report.entries.isEmpty {
            lines += ["contract drift:"] + report.table().split(separator: "\n").map { "  " + $0 }
        }
        if let driftReport {
            do {
                try JSONEncoder().encode(report).write(to: URL(fileURLWithPath: driftReport))
            } catch {
                throw Unreadable(description: "cannot write the drift report to '\(driftReport)': \(error.localizedDescription)")
            }
            lines.append("drift report: \(driftReport)")
        }
        return (lines, check.exitCode)
    }

    /// How the drift report names the call: `GET` and the URL's path with identifiers written
    /// `{id}`, as an app's client names it; a file by its name.
    var operationName: String {
        guard let url = URL(string: source), url.scheme == "http" || url.scheme == "https" else {
            return "file " + URL(fileURLWithPath: source).lastPathComponent
        }
        return OperationName.bounded("GET", String(url.path.drop { $0 == "/" }))
    }

    private func loadContract() throws(Unreadable) -> EnvelopeContract {
        if let builtIn = BuiltInContracts.named(contract) { return builtIn }
        guard let data = FileManager.default.contents(atPath: contract) else {
            throw Unreadable(description: "cannot read contract file '\(contract)' (expected a, b, c or a readable file)")
        }
        do {
            return try ContractFile.contract(from: data)
        } catch {
            throw Unreadable(description: "contract file '\(contract)': \(error)")
        }
    }

    private func load() async throws(Unreadable) -> (Data, HTTPResponse) {
        guard source.hasPrefix("http://") || source.hasPrefix("https://") else {
            guard let data = FileManager.default.contents(atPath: source) else {
                throw Unreadable(description: "cannot read '\(source)': no such readable file")
            }
            return (data, HTTPResponse(status: HTTPResponse.Status(code: status)))
        }
        guard let url = URL(string: source), url.host != nil else {
            throw Unreadable(description: "'\(source)' is not a valid URL")
        }
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        do {
            let (data, response) = try await session.data(for: URLRequest(url: url, timeoutInterval: timeout))
            guard let http = response as? HTTPURLResponse else {
                throw Unreadable(description: "\(source) did not answer over HTTP")
            }
            var fields = HTTPFields()
            for case (let name as String, let value as String) in http.allHeaderFields {
                if let fieldName = HTTPField.Name(name) { fields.append(HTTPField(name: fieldName, value: value)) }
            }
            return (data, HTTPResponse(status: HTTPResponse.Status(code: http.statusCode), headerFields: fields))
        } catch let failure as Unreadable {
            throw failure
        } catch {
            throw Unreadable(description: "cannot fetch \(source): \(Self.reason(error))")
        }
    }

    private static func reason(_ error: any Error) -> String {
        switch (error as? URLError)?.code {
        case .cannotConnectToHost?: "the connection was refused"
        case .timedOut?: "it did not answer in time"
        case .cannotFindHost?, .dnsLookupFailed?: "the host is unknown"
        case .networkConnectionLost?: "the connection was lost"
        case .notConnectedToInternet?: "there is no network"
        default: (error as NSError).localizedDescription
        }
    }
}
