import ArgumentParser
import BadBackend
import Foundation
import Testing

@testable import BackstopCLI

/// What the `Backstop-Scenario` header and `backstop proxy`'s options read, and what each
/// byte dirt does to JSON text.
@Suite("BackstopProxy scenarios as text, and byte dirt")
struct ProxyScenarioTests {
    @Test(
        "Each scenario reads back from its own description, defaults filled in",
        arguments: [
            ("byte-order-mark", ProxyScenario.dirt(.byteOrderMark)),
            ("trailing-commas", .dirt(.trailingCommas)),
            ("latin-1", .dirt(.latin1)),
            ("NaN", .dirt(.notANumber)),
            ("odd-dates", .schemaDirt("odd-dates")),
            ("latency", .latency(delay: .seconds(1), jitter: .zero)),
            ("latency; ms=800 ;jitter=200", .latency(delay: .milliseconds(800), jitter: .milliseconds(200))),
            ("bandwidth; rate=5", .bandwidth(bytesPerSecond: 5 * 1024)),
            ("reset", .reset(afterBytes: 0)),
            ("reset; after=100", .reset(afterBytes: 100)),
            ("timeout", .timeout(after: nil)),
            ("timeout; ms=250", .timeout(after: .milliseconds(250))),
            ("slow-close", .slowClose(delay: .seconds(1))),
            ("http-5xx", .serverErrors(ratio: 1, status: 503, retryAfter: nil)),
            ("http-5xx; ratio=0.25; status=500; retryAfter=9", .serverErrors(ratio: 0.25, status: 500, retryAfter: 9)),
        ])
    func reads(text: String, scenario: ProxyScenario) throws {
        #expect(try ProxyScenario(parsing: text) == scenario)
        #expect(try ProxyScenario(parsing: scenario.description) == scenario)
    }

    @Test(
        "Text it cannot read names the part and what it takes",
        arguments: [
            (
                "slow",
                "no proxy scenario is named 'slow'; the names are byte-order-mark, trailing-commas, latin-1, nan, numbers-as-strings, nulls-and-missing-fields, unknown-enum-values, broken-array-element, odd-dates, token-expired, sign-in-required, maintenance, rate-limited, unknown-code, hostile-message, latency, bandwidth, reset, timeout, slow-close, http-5xx"
            ),
            ("latency; ms", "'ms' in scenario 'latency' is not key=value"),
            ("latency; ms=-1", "ms=-1 in scenario 'latency' is not a whole number from 0 to 600000"),
            ("latency; jiter=5", "scenario 'latency' takes no parameter 'jiter'"),
            ("bandwidth; rate=0", "rate=0 in scenario 'bandwidth' is not a whole number from 1 to 1000000"),
            ("http-5xx; status=404", "status=404 in scenario 'http-5xx' is not a whole number from 500 to 599"),
            ("http-5xx; ratio=2", "ratio=2 in scenario 'http-5xx' is not a number from 0 to 1"),
            ("byte-order-mark; x=1", "scenario 'byte-order-mark' takes no parameter 'x'"),
        ])
    func refuses(text: String, message: String) {
        #expect(throws: ProxyScenario.Invalid.self) { try ProxyScenario(parsing: text) }
        do {
            _ = try ProxyScenario(parsing: text)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("Byte dirt changes the bytes, strings' contents left alone")
    func byteDirt() {
        let json = Array(#"{"a":[1,{"b":"x,}]\"y"}],"c":{},"d":[],"é":-2.5e3}"#.utf8)
        #expect(ByteDirt.byteOrderMark.applied(to: json) == [0xEF, 0xBB, 0xBF] + json)
        #expect(
            String(decoding: ByteDirt.trailingCommas.applied(to: json), as: UTF8.self)
                == #"{"a":[1,{"b":"x,}]\"y",},],"c":{},"d":[],"é":-2.5e3,}"#)
        #expect(
            ByteDirt.latin1.applied(to: json)
                == Array(#"{"a":[1,{"b":"x,}]\"y"}],"c":{},"d":[],""#.utf8) + [0xE9] + Array(#"":-2.5e3}"#.utf8))
        #expect(
            String(decoding: ByteDirt.notANumber.applied(to: Array(#"{"n1":"7","v":-2.5e3}"#.utf8)), as: UTF8.self)
                == #"{"n1":"7","v":NaN}"#)
        #expect(ByteDirt.latin1.applied(to: Array(#"{"a":"ascii"}"#.utf8)) == Array(#"{"a":"ascii"}"#.utf8))
        #expect(ByteDirt.notANumber.applied(to: Array(#"{"a":"1"}"#.utf8)) == Array(#"{"a":"1"}"#.utf8))
    }

    static func parse(_ arguments: [String]) throws -> ProxyCommand {
        try #require(try BackstopCommand.parseAsRoot(["proxy"] + arguments) as? ProxyCommand)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("backstop proxy's options set the proxy's configuration")
    func options() throws {
        let defaults = try Self.parse(["--upstream", "https://staging.example.com/api"]).proxyConfiguration(seed: 3)
        #expect(defaults.upstream.absoluteString == "https://staging.example.com/api")
        #expect(defaults.host == "127.0.0.1")
        #expect(defaults.port == 0)
        #expect(defaults.scenario == nil)
        #expect(defaults.randomFaults == nil)
        #expect(defaults.seed == 3)
        #expect(defaults.upstreamTimeout == .seconds(30))

        let set = try Self.parse([
            "--upstream", "http://127.0.0.1:8080", "--port", "9000", "--scenario", "latency; ms=5", "--fault-rate", "0.5",
            "--upstream-timeout", "2.5", "--max-request-bytes", "10", "--max-response-bytes", "20",
        ]).proxyConfiguration(seed: 8)
        #expect(set.port == 9000)
        #expect(set.scenario == .latency(delay: .milliseconds(5), jitter: .zero))
        #expect(set.randomFaults == RandomFaults(rate: 0.5, seed: 8))
        #expect(set.upstreamTimeout == .milliseconds(2500))
        #expect(set.maximumRequestBodyBytes == 10)
        #expect(set.maximumResponseBodyBytes == 20)

        let alias = try Self.parse(["--upstream", "http://127.0.0.1:8080", "--random-faults", "0.25"]).proxyConfiguration(seed: 2)
        #expect(alias.randomFaults == RandomFaults(rate: 0.25, seed: 2))
    }

    @Test(
        "A value it cannot use is refused, saying what it takes",
        arguments: [
            (
                ["--upstream", "ftp://example.com"],
                "--upstream must be an http or https URL with a host, such as https://staging.example.com"
            ),
            (["--upstream", "http://"], "--upstream must be an http or https URL with a host, such as https://staging.example.com"),
            (
                ["--upstream", "http://x", "--scenario", "lag"],
                "--scenario: no proxy scenario is named 'lag'; the names are byte-order-mark, trailing-commas, latin-1, nan, numbers-as-strings, nulls-and-missing-fields, unknown-enum-values, broken-array-element, odd-dates, token-expired, sign-in-required, maintenance, rate-limited, unknown-code, hostile-message, latency, bandwidth, reset, timeout, slow-close, http-5xx"
            ),
            (["--upstream", "http://x", "--fault-rate", "2"], "--fault-rate must be 0 to 1"),
            (["--upstream", "http://x", "--upstream-timeout", "0"], "--upstream-timeout must be above 0 and at most 3600 seconds"),
        ])
    func refused(arguments: [String], message: String) {
        do {
            _ = try BackstopCommand.parseAsRoot(["proxy"] + arguments)
            Issue.record("\(arguments) parsed")
        } catch {
            #expect(BackstopCommand.message(for: error) == message)
        }
    }

    @Test("The upstream is printed without its user, password or query")
    func shownUpstream() throws {
        let url = try #require(URL(string: "https://user:pass@staging.example.com/api?api_key=secret"))
        #expect(ProxyCommand.shown(url) == "https://staging.example.com/api")
    }
}
