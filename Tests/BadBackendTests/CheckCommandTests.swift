import ArgumentParser
import Backstop
import BackstopJSON
import BackstopTestSupport
import BadBackend
import Clocks
import Foundation
import Testing

@testable import BackstopCLI

// BadBackend, like Hummingbird 2, needs macOS 14 or iOS 17: each test says so.
@Suite("backstop check")
struct CheckCommandTests {
    /// Writes `text` to a fresh temporary file and returns its path.
    static func file(_ text: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("check-\(UUID().uuidString).json")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// A URL's fetch gets 60 s unless the test sets `--timeout`: the default 10 s is a real
    /// clock's, and a loopback fetch has taken longer than that with every suite running.
    static func report(_ arguments: [String]) async throws -> (lines: [String], exitCode: Int32) {
        let fetches = arguments.first?.hasPrefix("http") == true && !arguments.contains("--timeout")
        return try await CheckCommand.parse(fetches ? arguments + ["--timeout", "60"] : arguments).report()
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A payload: its shape, and the repairs of the envelope")
    func payload() async throws {
        let path = try Self.file(#"{"code":"200","msg":"OK","data":{"id":"7","name":"Room 12","tags":["a","b"]}}"#)
        let report = try await Self.report([path, "--contract", "b"])
        #expect(report.exitCode == 0)
        #expect(
            Array(report.lines.prefix(5)) == [
                "contract: code at $.code, message at $.msg, payload at $.data, success when code is 200",
                "payload: {id: string, name: string, tags: [2 × string]}",
                "repairs:",
                #"  $.code: expected Int, found string "200"; coerced"#,
                "contract drift:",
            ])
        let row = try #require(report.lines.last)
        let file = URL(fileURLWithPath: path).lastPathComponent
        #expect(row.hasPrefix("  1      file \(file)  $.code  string  coerced  "))
        #expect(row.hasSuffix(#"  "200""#))
    }

    /// The drift `check` prints is the report `backstop report` renders from the file it saves.
    @Test("Drift by index-free path, saved for backstop report; a URL's operation is bounded")
    func drift() async throws {
        // Raw control characters in two elements' strings: one row, counted twice, without positions.
        let path = try Self.file("{\"code\":\"200\",\"msg\":\"OK\",\"data\":[{\"s\":\"a\u{1}\"},{\"s\":\"b\u{2}\"}]}")
        let saved = FileManager.default.temporaryDirectory.appendingPathComponent("drift-\(UUID().uuidString).json").path
        let report = try await Self.report([path, "--contract", "b", "--drift-report", saved])
        #expect(report.exitCode == 0)
        let start = try #require(report.lines.firstIndex(of: "contract drift:"))
        let table = Array(report.lines[(start + 1)..<(report.lines.count - 1)])
        #expect(table.count == 3)
        #expect(table[0].hasPrefix("  count  operation"))
        #expect(table[1].hasPrefix("  2      file "))
        #expect(table[1].contains("  $.data[*].s  string  acceptedControlCharacter  "))
        #expect(table[2].contains("  $.code       string  coerced  "))
        #expect(report.lines.last == "drift report: \(saved)")

        let decoded = try JSONDecoder().decode(ContractDriftReport.self, from: Data(contentsOf: URL(fileURLWithPath: saved)))
        #expect(decoded.entries.map(\.count).sorted() == [1, 2])
        #expect(try ReportCommand.parse([saved]).table().split(separator: "\n").map { "  " + $0 } == table)

        #expect(try CheckCommand.parse(["http://api.example.com/b/products/42", "--contract", "b"]).operationName == "GET b/products/{id}")
        let unwritable = await #expect(throws: CheckCommand.Unreadable.self) {
            try await Self.report([path, "--contract", "b", "--drift-report", "/nonexistent-dir/drift.json"])
        }
        #expect(unwritable?.description.hasPrefix("cannot write the drift report to '/nonexistent-dir/drift.json'") == true)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A business failure: C's broken shape still gives code and message")
    func businessFailure() async throws {
        let path = try Self.file(#"{"statusCode":403,"result":{"message":"您的帳號權限不足"}}"#)
        let report = try await Self.report([path, "--contract", "c"])
        #expect(report.exitCode == 1)
        #expect(report.lines.dropFirst() == [#"business failure: code 403, message "您的帳號權限不足""#, "repairs: none"])
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("An HTTP error, and a body that breaks the contract")
    func httpErrorAndBrokenContract() async throws {
        let envelope = try Self.file(#"{"code":50300,"msg":"busy","data":null}"#)
        let http = try await Self.report([envelope, "--contract", "b", "--status", "503"])
        #expect(http.lines.dropFirst().first == #"HTTP error: status 503, code 50300, message "busy""#)
        #expect(http.exitCode == 1)
        let html = try Self.file("<!DOCTYPE html><html><body>502 Bad Gateway</body></html>")
        let broken = try await Self.report([html, "--contract", "a"])
        #expect(broken.exitCode == 1)
        #expect(broken.lines.dropFirst().first?.hasPrefix("contract broken: ") == true)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A contract file describes an EnvelopeContract")
    func contractFile() async throws {
        let contract = try Self.file(
            #"{"code":"errno","message":"errstr","payload":"body","success":{"codes":[0,"OK"]},"acceptedStatuses":[200,201]}"#)
        let body = try Self.file(#"{"errno":0,"body":[1,2,3]}"#)
        let report = try await Self.report([body, "--contract", contract])
        #expect(report.lines.first == "contract: code at $.errno, message at $.errstr, payload at $.body, success when code is \"OK\" or 0")
        #expect(report.lines.dropFirst().first == "payload: [3 × number]")
        let flag = try ContractFile.contract(from: Data(#"{"code":"code","success":{"flag":"ok"}}"#.utf8))
        #expect(flag == EnvelopeContract(code: "code", success: .flag("ok")))
        let plain = try ContractFile.contract(from: Data(#"{"success":"httpStatus"}"#.utf8))
        #expect(plain == .noEnvelope)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test(
        "Bad contract files say what is wrong in one line",
        arguments: [
            (#"[]"#, "a contract file is a JSON object"),
            (#"{"code":"c","success":{"codes":[200]},"payloud":"data"}"#, "unknown member 'payloud'"),
            (#"{"success":{"codes":[200]}}"#, "'code' is needed"),
            (#"{"code":"c","success":"always"}"#, "'success' is"),
            (#"{"code":"c","success":{"codes":[200]},"acceptedStatuses":[299,200]}"#, "'acceptedStatuses' is"),
        ])
    func badContractFiles(text: String, reason: String) async throws {
        let contract = try Self.file(text)
        let body = try Self.file("{}")
        do {
            _ = try await Self.report([body, "--contract", contract])
            Issue.record("accepted \(text)")
        } catch let failure as CheckCommand.Unreadable {
            #expect(failure.description.contains(reason), "\(failure)")
            #expect(!failure.description.contains("\n"))
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Unreadable files and unreachable URLs are one clear line")
    func unreadable() async throws {
        let body = try Self.file("{}")
        let cases: [([String], String)] = [
            (["/no/such/file.json", "--contract", "b"], "cannot read '/no/such/file.json'"),
            ([body, "--contract", "/no/such/contract.json"], "cannot read contract file"),
            (["http://127.0.0.1:1/b/products", "--contract", "b"], "cannot fetch http://127.0.0.1:1/b/products"),
        ]
        for (arguments, expected) in cases {
            do {
                _ = try await Self.report(arguments)
                Issue.record("no error for \(arguments)")
            } catch let failure as CheckCommand.Unreadable {
                #expect(failure.description.contains(expected), "\(failure)")
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Bad flags are refused before anything is read")
    func badFlags() {
        #expect(throws: (any Error).self) { try CheckCommand.parse(["x.json"]) }
        #expect(throws: (any Error).self) { try CheckCommand.parse(["x.json", "--contract", "b", "--status", "42"]) }
        #expect(throws: (any Error).self) { try CheckCommand.parse(["x.json", "--contract", "b", "--timeout", "0"]) }
        #expect(throws: (any Error).self) { try ServeCommand.parse(["--fault-rate", "2"]) }
        #expect(throws: (any Error).self) { try ServeCommand.parse(["--port", "70000"]) }
        #expect(CheckCommand.helpMessage().contains("acceptedStatuses"))
        #expect(ServeCommand.helpMessage().contains("--fault-rate"))
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A URL on BadBackend: what an app would see of each style", arguments: EnvelopeStyle.allCases)
    func url(style: EnvelopeStyle) async throws {
        try await withBackend { _, url in
            let ok = try await Self.report([url.absoluteString + "/\(style.rawValue)/study-groups/7", "--contract", style.rawValue])
            #expect(ok.exitCode == 0)
            #expect(
                ok.lines.dropFirst().first
                    == "payload: {id: number, memberCount: number, members: [3 × {id: number, nickname: string}], name: string, role: string, teamCode: string}"
            )
            let declined = try await Self.report([
                url.absoluteString + "/scenarios/class-not-found/\(style.rawValue)/study-groups/7", "--contract", style.rawValue,
            ])
            #expect(declined.lines.dropFirst().first == #"business failure: code 11210006, message "Class not found""#)
            let retry = try await Self.report([
                url.absoluteString + "/scenarios/http-429/\(style.rawValue)/products", "--contract", style.rawValue,
            ])
            #expect(retry.lines.dropFirst().first == #"HTTP error: status 429, code 42900, message "Too Many Requests""#)
        }
    }

    // MARK: Text the response brought

    static func unsafe(_ lines: [String]) -> [String] {
        lines.filter { $0.unicodeScalars.contains(where: UntrustedText.isUnsafe) }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A hostile message in a file is printed escaped, and the escapes give back what was sent")
    func hostileMessageInAFile() async throws {
        let hostile = "\u{1B}[2J\u{1B}]0;pwned\u{7} ok\u{202E}gnp.exe\r\nfake: line\u{0}\u{9B}31m\u{2066}"
        let json =
            String(data: try JSONSerialization.data(withJSONObject: ["code": 77777, "msg": hostile, "data": NSNull()]), encoding: .utf8)
            ?? ""
        let report = try await Self.report([try Self.file(json), "--contract", "b"])
        #expect(report.exitCode == 1)
        #expect(Self.unsafe(report.lines).isEmpty, "\(report.lines)")
        let line = try #require(report.lines.dropFirst().first)
        #expect(line == "business failure: code 77777, message \"\(UntrustedText.escaped(hostile))\"")
        #expect(UntrustedText.unescaped(line).contains(hostile))
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Raw escape bytes in a body that is not JSON never reach the terminal")
    func rawEscapeBytes() async throws {
        let report = try await Self.report([try Self.file("\u{1B}[2J\u{1B}[31mhello\u{7}"), "--contract", "b"])
        #expect(report.exitCode == 1)
        #expect(Self.unsafe(report.lines).isEmpty, "\(report.lines)")
        #expect(report.lines.dropFirst().first?.contains(#"\u{1B}[2J\u{1B}[31mhello"#) == true)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A URL served by BadBackend: a hostile message, 1 MB of it, and right-to-left and CJK text unchanged")
    func hostileMessageFromAServer() async throws {
        try await withBackend { _, url in
            let base = url.absoluteString + "/scenarios/hostile-message/b/products/1"
            let hostile = try await Self.report([base, "--contract", "b"])
            #expect(Self.unsafe(hostile.lines).isEmpty, "\(hostile.lines)")
            #expect(hostile.lines.dropFirst().first.map(UntrustedText.unescaped)?.contains(Scenario.hostileText) == true)

            let large = try await Self.report([base + "?repeat=20000", "--contract", "b"])
            #expect(Self.unsafe(large.lines).isEmpty)
            #expect((large.lines.dropFirst().first?.utf8.count ?? 0) > 1 << 20)

            let legitimate = "مرحبا، שלום، 班级不存在 👨‍👩‍👧"
            let query = legitimate.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let rtl = try await Self.report([base + "?message=" + query, "--contract", "b"])
            #expect(rtl.lines.dropFirst().first == "business failure: code 77777, message \"\(legitimate)\"")
        }
    }

    // MARK: Bounds: what it reads, and for how long

    /// The description of what `arguments` fail with, or nil when they do not.
    static func failure(_ arguments: [String]) async -> String? {
        do {
            _ = try await report(arguments)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A FIFO, a directory and a device are refused at once, each by name, as a source or a contract")
    func notRegularFiles() async throws {
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("check-\(UUID().uuidString).fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { try? FileManager.default.removeItem(atPath: fifo) }
        let directory = FileManager.default.temporaryDirectory.path
        let body = try Self.file("{}")
        let cases: [([String], String)] = [
            ([fifo, "--contract", "b"], "cannot read '\(fifo)': it is a FIFO (named pipe), not a regular file"),
            ([directory, "--contract", "b"], "cannot read '\(directory)': it is a directory, not a regular file"),
            (["/dev/zero", "--contract", "b"], "cannot read '/dev/zero': it is a device, not a regular file"),
            (["/dev/urandom", "--contract", "b"], "cannot read '/dev/urandom': it is a device, not a regular file"),
            (
                [body, "--contract", fifo],
                "cannot read contract file '\(fifo)': it is a FIFO (named pipe), not a regular file (expected a, b, c or a contract file)"
            ),
            ([body, "--contract", "/dev/zero"], "cannot read contract file '/dev/zero': it is a device, not a regular file"),
            (["/no/such/file.json", "--contract", "b"], "cannot read '/no/such/file.json': no such file"),
        ]
        for (arguments, expected) in cases {
            let failure = await Self.failure(arguments)
            #expect(failure?.hasPrefix(expected) == true, "\(arguments): \(failure ?? "no error")")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A file over the limit is refused from its size, before it is read: a sparse 2 GiB file, and --max-bytes")
    func fileOverTheLimit() async throws {
        let path = try Self.file("")
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: 2 << 30)
        try handle.close()
        #expect(
            await Self.failure([path, "--contract", "b"])
                == "cannot read '\(path)': it is 2147483648 bytes, more than the limit of 16777216 bytes (--max-bytes raises it)")
        let text = #"{"code":"200","msg":"OK","data":{}}"#
        let small = try Self.file(text)
        #expect(
            await Self.failure([small, "--contract", "b", "--max-bytes", "10"])
                == "cannot read '\(small)': it is \(text.utf8.count) bytes, more than the limit of 10 bytes (--max-bytes raises it)")
        #expect(try await Self.report([small, "--contract", "b", "--max-bytes", String(text.utf8.count)]).exitCode == 0)
        #expect(throws: (any Error).self) { try CheckCommand.parse([small, "--contract", "b", "--max-bytes", "0"]) }
        #expect(throws: (any Error).self) { try CheckCommand.parse([small, "--contract", "b", "--max-bytes", "2000000000"]) }
        #expect(throws: (any Error).self) { try CheckCommand.parse([small, "--contract", "b", "--timeout", "1e300"]) }
        #expect(throws: (any Error).self) { try CheckCommand.parse([small, "--contract", "b", "--timeout", "nan"]) }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A URL's body over the limit is refused, by its Content-Length or as it arrives")
    func urlOverTheLimit() async throws {
        try await withBackend { _, url in
            let source = url.absoluteString + "/b/sized/5000"
            let failure = await Self.failure([source, "--contract", "b", "--max-bytes", "1000"])
            #expect(failure?.hasPrefix("cannot fetch \(source): its body ") == true, "\(failure ?? "no error")")
            #expect(failure?.contains("limit of 1000") == true)
            let whole = try await Self.report([source, "--contract", "b", "--max-bytes", "6000"])
            #expect(whole.exitCode == 0)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("--timeout is a deadline for the whole fetch, on the clock the command is given: a server that never answers")
    func totalDeadline() async throws {
        // The server's clock is a test clock nobody advances: its slow answer never comes.
        try await withBackend { backend, url in
            let clock = TestClock()
            let source = url.absoluteString + "/scenarios/slow/b/products/1"
            let command = try CheckCommand.parse([source, "--contract", "b", "--timeout", "30"])
            let check = Task { () async throws -> (lines: [String], exitCode: Int32) in try await command.report(clock: clock) }
            _ = try await backend.requestLog.arrival(where: { $0.scenario == .slow })
            // Past the deadline, not onto it: a test clock keeps waiting a sleep that starts at its deadline.
            await clock.advance(by: .seconds(31))
            let error = await #expect(throws: CheckCommand.Unreadable.self) { try await check.value }
            #expect(error?.description == "cannot fetch \(source): it did not finish within 30 seconds (--timeout)")
        }
    }

    @Test("a URL's credential-like query values are redacted in what check prints")
    func redactsTheURLsSecrets() async throws {
        try await withBackend { backend, url in
            let clock = TestClock()
            let path = url.absoluteString + "/scenarios/slow/b/products/1"
            let command = try CheckCommand.parse([path + "?access_token=s3cr3t-t0ken&page=2", "--contract", "b", "--timeout", "30"])
            let check = Task { () async throws -> (lines: [String], exitCode: Int32) in try await command.report(clock: clock) }
            _ = try await backend.requestLog.arrival(where: { $0.scenario == .slow })
            await clock.advance(by: .seconds(31))
            let error = await #expect(throws: CheckCommand.Unreadable.self) { try await check.value }
            #expect(
                error?.description
                    == "cannot fetch \(path)?access_token=%3Credacted%3E&page=2: it did not finish within 30 seconds (--timeout)")
        }
    }

    @Test("--timeout ends a body that keeps trickling: a deadline for the whole, not between bytes")
    func tricklingBody() async throws {
        // A chunked 200 that never ends: one more chunk, a space, each time the test says so.
        let trickle = DispatchSemaphore(value: 0)
        let server = try HostileServer { connection in
            try connection.readRequest()
            try connection.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n{\r\n")
            while true {
                trickle.wait()
                try connection.write("1\r\n \r\n")
            }
        }
        defer {
            server.stop()
            // Its next write finds the connection closed, and the script ends.
            trickle.signal()
        }
        let clock = TestClock()
        let source = "\(server.url.absoluteString)/b/products"
        let command = try CheckCommand.parse([source, "--contract", "b", "--timeout", "30"])
        let check = Task { () async throws -> (lines: [String], exitCode: Int32) in try await command.report(clock: clock) }
        _ = await server.request(0)
        // A byte every 5 seconds on the command's clock: never idle, and past the deadline after 35.
        for _ in 0..<7 {
            trickle.signal()
            await clock.advance(by: .seconds(5))
        }
        let error = await #expect(throws: CheckCommand.Unreadable.self) { try await check.value }
        #expect(error?.description == "cannot fetch \(source): it did not finish within 30 seconds (--timeout)")
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Text from paths and contract files is escaped: file names, member names and contract paths")
    func hostilePathsAndContracts() async throws {
        let hostile = "\u{1B}]0;pwned\u{7}\u{202E}txt.exe\n"
        let missing = "/no/such/" + hostile + ".json"
        let noFile = try #require(await Self.failure([missing, "--contract", "b"]))
        #expect(noFile == "cannot read '\(UntrustedText.escaped(missing))': no such file")

        let stranger = try Self.file("{\"code\":\"c\",\"success\":{\"codes\":[200]},\"\\u001b[2J\":1}")
        let unknown = try #require(await Self.failure([try Self.file("{}"), "--contract", stranger]))
        #expect(unknown.contains(#"unknown member '\u{1B}[2J'"#), "\(unknown)")

        let contract = try Self.file("{\"code\":\"a\\u001b[2Jb\",\"success\":{\"codes\":[200]}}")
        let body = try Self.file(#"{"code":200}"#)
        let saved = FileManager.default.temporaryDirectory.appendingPathComponent("drift-\(UUID().uuidString)\u{1B}[31m.json").path
        let report = try await Self.report([body, "--contract", contract, "--drift-report", saved])
        #expect(Self.unsafe(report.lines).isEmpty, "\(report.lines)")
        #expect(report.lines.first?.hasPrefix(#"contract: code at $['a\u{1B}[2Jb']"#) == true, "\(report.lines)")
        #expect(report.lines.last == "drift report: " + UntrustedText.escaped(saved))
        for failure in [noFile, unknown] { #expect(Self.unsafe([failure]).isEmpty) }
    }
}
