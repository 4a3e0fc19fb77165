import Backstop
import BackstopJSON
import BackstopOpenAPI
import BackstopTestSupport
import BadBackend
import Foundation
import OpenAPIRuntime
import Testing

/// apple/swift-openapi-generator#428 and #608: a response's enum-typed property holds a value
/// the document does not list. The generated code throws `DecodingError.dataCorrupted` for the
/// whole response (#428); #608 asks for the enum's own `unknown` case instead. With
/// OpenAPIContract, each of the three ways to name a fallback, and what happens without one.
@Suite("Unknown enum values (swift-openapi-generator #428, #608)")
struct UnknownEnumTests {
    /// Signs in on the clean server for a bearer token.
    static func accessToken(_ url: URL, _ transport: TransportKind) async throws -> String {
        try #require(try await GeneratedClients.client(url, nil, transport).signIn().ok.body.json.data).accessToken
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test(
        "#428/#608: a plan the document does not list fails the call plainly, and becomes the enum's own unknown case",
        arguments: TransportKind.allCases)
    func ownUnknownMember(transport: TransportKind) async throws {
        try await withBackend { _, url in
            let bearer = BearerToken(token: try await Self.accessToken(url, transport))
            let plain = GeneratedClients.client(url, .unknownEnumValues, transport, middlewares: [bearer])
            let error = await #expect(throws: ClientError.self) { _ = try await plain.getAccount().ok.body.json }
            guard case .dataCorrupted(let context)? = error?.underlyingError as? DecodingError else {
                Issue.record("expected DecodingError.dataCorrupted, got \(String(describing: error?.underlyingError))")
                return
            }
            #expect(context.codingPath.map(\.stringValue) == ["data", "plan"])

            let drift = ContractDriftRecorder()
            let repairs = RecordingRepairs(try GeneratedClients.contract())
            let client = GeneratedClients.client(
                url, .unknownEnumValues, transport, pipeline: quietPipeline { $0.contractDrift = drift }, repairing: repairs,
                middlewares: [bearer])
            let account = try #require(try await client.getAccount().ok.body.json.data)
            #expect(account.plan == .unknown)
            #expect(account.email == "ada@example.com" && account.groups == [7, 8])
            #expect(
                repairs.repairs.map(\.description) == [
                    #"$.data.plan: expected Plan, found string "platinum"; fellBack ("platinum" is not a known case; used unknown)"#
                ])
            #expect(drift.report().lines == ["getAccount $.data.plan fellBack ×1"])
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A fallback the app names wins over none in the document", arguments: TransportKind.allCases)
    func appNamedFallback(transport: TransportKind) async throws {
        try await withBackend { _, url in
            let plain = GeneratedClients.client(url, .unknownEnumValues, transport)
            await #expect(throws: ClientError.self) { _ = try await plain.signIn().ok.body.json }

            let repairs = RecordingRepairs(try GeneratedClients.contract(enumFallbacks: ["TokenType": "Bearer"]))
            let client = GeneratedClients.client(url, .unknownEnumValues, transport, repairing: repairs)
            let tokens = try #require(try await client.signIn().ok.body.json.data)
            // The plain call above signed in first.
            #expect(tokens.tokenType == .bearer && tokens.accessToken == "access-2")
            #expect(repairs.lines == ["$.data.tokenType: fellBack"])
        }
    }

    /// Category names no fallback: a product with an unknown one cannot be repaired, and is never
    /// given a made-up category. The nearest optional that holds it is the envelope's `data`
    /// (null on a failure, so optional in BadBackend's document): it becomes nil, and the repair
    /// says why. In a list the product would be dropped; with no optional above it, the call fails.
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Without a fallback the nearest optional holder becomes nil, saying why", arguments: TransportKind.allCases)
    func noFallback(transport: TransportKind) async throws {
        try await withBackend { _, url in
            let repairs = RecordingRepairs(try GeneratedClients.contract())
            let client = GeneratedClients.client(url, .unknownEnumValues, transport, repairing: repairs)
            let envelope = try await client.getProduct(path: .init(id: 2)).ok.body.json
            #expect(envelope.code == 200 && envelope.data == nil)
            #expect(
                repairs.repairs.map(\.description) == [
                    #"$.data: expected Product, found string "hologram"; setToNil ($.data.category: "hologram" is not a value of Category)"#
                ])
            let list = try await client.listProducts().ok.body.json.data
            #expect(list?.isEmpty == true)
        }
    }
}
