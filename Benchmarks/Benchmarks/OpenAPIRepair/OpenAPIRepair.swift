// Issue 35's cost: BackstopOpenAPI's repair step (`OpenAPIContract.repair`) on the corpus, against
// the generated code's own Foundation decode of the same body, interleaved in one process.
//
// The types are swift-openapi-generator's (GeneratedPayloads, from its openapi.yaml by the build
// plugin, `generate: [types]`), decoded as generated code decodes them: a `JSONDecoder` with
// swift-openapi-runtime's date transcoder (`PayloadsDocument.generatedCodeDecoder()`). The contract
// is read from the same document. Benchmarks are named "openapi/<payload>/interleaved":
// - "(repair + decode) / decode": the repair step, then the generated decode of what it hands on,
//   over the generated decode alone (per mille); what a generated client pays with the repair on.
//   Goal: at most 1,150 on a clean body.
// - "repair / decode": the repair step alone over the decode (per mille).
// - for "envelope20k" also the dirty envelope (every 10th of 20,000 items broken, 2,000 repairs):
//   "(repair + decode), dirty / decode, clean". Goal: at most 2,000.
// Each iteration times `rounds` rounds, each running every contender once in a shuffled order, and
// reports medians. Set-up checks every contender once: a clean body decodes, repairs to no repair and
// the same bytes; the dirty one repairs to one repair per broken item and then decodes.

import BackstopOpenAPI
import Benchmark
import BenchmarkPayloads
import Foundation
import GeneratedPayloads
import Interleaving

typealias Contender = @Sendable () throws -> Void

struct SetupFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// One payload: its body, its operation, and the generated decode of it.
struct Payload: Sendable {
    let name: String
    let operationID: String
    let body: Data
    let rounds: Int
    let decode: @Sendable (Data) throws -> Void
}

let benchmarks: @Sendable () -> Void = {
    for payload in payloads() {
        let repairAndDecode = BenchmarkMetric.custom("(repair + decode) / decode (‰)", useScalingFactor: false)
        let repairAlone = BenchmarkMetric.custom("repair / decode (‰)", useScalingFactor: false)
        let dirty = BenchmarkMetric.custom("(repair + decode), dirty / decode, clean (‰)", useScalingFactor: false)
        let isEnvelope = payload.name == "envelope20k"
        Benchmark(
            "openapi/\(payload.name)/interleaved",
            configuration: .init(
                metrics: [repairAndDecode, repairAlone] + (isEnvelope ? [dirty] : []), warmupIterations: 1,
                maxDuration: .seconds(60), maxIterations: 7)
        ) { (benchmark: Benchmark, contenders: [Contender]) in
            for _ in benchmark.scaledIterations {
                let medians = medians(of: contenders, rounds: payload.rounds)
                benchmark.measurement(repairAndDecode, Int(medians[2] / medians[0] * 1000))
                benchmark.measurement(repairAlone, Int(medians[1] / medians[0] * 1000))
                if isEnvelope { benchmark.measurement(dirty, Int(medians[3] / medians[0] * 1000)) }
            }
        } setup: {
            try contenders(for: payload)
        }
    }
}

func payloads() -> [Payload] {
    let decoder = PayloadsDocument.generatedCodeDecoder()
    func decoding<T: Decodable & SendableMetatype>(_ type: T.Type) -> @Sendable (Data) throws -> Void {
        { data in blackHole(try decoder.decode(T.self, from: data)) }
    }
    func corpus(_ file: String) -> Data { (try? Corpus.load(file)) ?? Data() }
    return [
        Payload(
            name: "twitter", operationID: "getTwitterSearch", body: corpus("twitter.json"), rounds: 40,
            decode: decoding(Components.Schemas.TwitterSearch.self)),
        Payload(
            name: "citm_catalog", operationID: "getCITMCatalog", body: corpus("citm_catalog.json"), rounds: 15,
            decode: decoding(Components.Schemas.CITMCatalog.self)),
        Payload(
            name: "envelope20k", operationID: "getProducts", body: Data(EnvelopePayload.json(dirty: false).utf8), rounds: 7,
            decode: decoding(Components.Schemas.Envelope.self)),
        Payload(
            name: "small88", operationID: "getSmallUser", body: SmallUser.json, rounds: 20_000,
            decode: decoding(Components.Schemas.SmallUser.self)),
    ]
}

/// decode, repair, repair + decode (and for the envelope, repair + decode of the dirty one), checked once.
func contenders(for payload: Payload) throws -> [Contender] {
    let (body, operationID, decode) = (payload.body, payload.operationID, payload.decode)
    guard !body.isEmpty else {
        // Only a corpus file can be empty here: say where the corpus was looked for.
        _ = try Corpus.directory()
        throw SetupFailure("\(payload.name): no body")
    }
    let contract = try OpenAPIContract(contentsOf: PayloadsDocument.url)
    try decode(body)
    let repaired = try contract.repair(body, operationID: operationID, status: 200, contentType: "application/json")
    guard repaired.repairs.isEmpty, repaired.undescribed == nil, repaired.body == body else {
        throw SetupFailure(
            "\(payload.name): a clean body came back changed: \(repaired.repairs.prefix(3)) \(repaired.undescribed ?? "")")
    }
    var contenders: [Contender] = [
        { try decode(body) },
        { blackHole(try contract.repair(body, operationID: operationID, status: 200, contentType: "application/json")) },
        {
            let repaired = try contract.repair(body, operationID: operationID, status: 200, contentType: "application/json")
            try decode(repaired.body)
        },
    ]
    if payload.name == "envelope20k" {
        let dirty = Data(EnvelopePayload.json(dirty: true).utf8)
        let fixed = try contract.repair(dirty, operationID: operationID, status: 200, contentType: "application/json")
        guard fixed.repairs.count == EnvelopePayload.brokenItemCount else {
            throw SetupFailure("the dirty envelope gave \(fixed.repairs.count) repairs, not \(EnvelopePayload.brokenItemCount)")
        }
        try decode(fixed.body)
        contenders.append {
            let repaired = try contract.repair(dirty, operationID: operationID, status: 200, contentType: "application/json")
            try decode(repaired.body)
        }
    }
    return contenders
}

/// Each contender's median time over `rounds` rounds, each running every contender once in a
/// shuffled (seeded) order, so drift and load touch each alike.
func medians(of contenders: [Contender], rounds: Int) -> [Double] {
    var times = [[Double]](repeating: [], count: contenders.count)
    for index in interleavedOrder(contenders: contenders.count, rounds: rounds, seed: 35) {
        let start = ContinuousClock.now
        try? contenders[index]()
        let elapsed = ContinuousClock.now - start
        times[index].append(Double(elapsed.components.seconds) * 1e18 + Double(elapsed.components.attoseconds))
    }
    return times.map(median)
}
