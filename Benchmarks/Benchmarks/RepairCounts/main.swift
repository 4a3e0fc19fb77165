// Runs one step on one payload a given number of times, for `valgrind --tool=callgrind` to count
// instructions (`Benchmarks/repair-instructions.sh`): where BackstopOpenAPI's repair step spends its
// time, against the generated code's own decode, free of the machine's load.
//
//   RepairCounts <payload> <step> <iterations>
//
// payload: twitter, citm_catalog, envelope20k, envelope20k.dirty, small88
// step: decode (the generated type, as generated code decodes it), repair, repairDecode (both)

import BackstopOpenAPI
import BenchmarkPayloads
import Foundation
import GeneratedPayloads

struct Usage: Error, CustomStringConvertible {
    var description: String
}

func run() throws {
    let arguments = CommandLine.arguments
    guard arguments.count == 4, let iterations = Int(arguments[3]) else {
        throw Usage(
            description:
                "usage: RepairCounts <twitter|citm_catalog|envelope20k|envelope20k.dirty|small88> <decode|repair|repairDecode> <iterations>"
        )
    }
    let decoder = PayloadsDocument.generatedCodeDecoder()
    func decoding<T: Decodable>(_ type: T.Type) -> (Data) throws -> Void {
        { data in _ = try decoder.decode(T.self, from: data) }
    }
    let (body, operationID, decode): (Data, String, (Data) throws -> Void) =
        switch arguments[1] {
        case "twitter": (try Corpus.load("twitter.json"), "getTwitterSearch", decoding(Components.Schemas.TwitterSearch.self))
        case "citm_catalog": (try Corpus.load("citm_catalog.json"), "getCITMCatalog", decoding(Components.Schemas.CITMCatalog.self))
        case "envelope20k": (Data(EnvelopePayload.json(dirty: false).utf8), "getProducts", decoding(Components.Schemas.Envelope.self))
        case "envelope20k.dirty": (Data(EnvelopePayload.json(dirty: true).utf8), "getProducts", decoding(Components.Schemas.Envelope.self))
        case "small88": (SmallUser.json, "getSmallUser", decoding(Components.Schemas.SmallUser.self))
        default: throw Usage(description: "unknown payload \(arguments[1])")
        }
    let contract = try OpenAPIContract(contentsOf: PayloadsDocument.url)
    func repair() throws -> Data {
        try contract.repair(body, operationID: operationID, status: 200, contentType: "application/json").body
    }
    for _ in 0..<iterations {
        switch arguments[2] {
        case "decode": try decode(body)
        case "repair": _ = try repair()
        case "repairDecode": try decode(try repair())
        default: throw Usage(description: "unknown step \(arguments[2])")
        }
    }
}

do {
    try run()
} catch {
    print("RepairCounts: \(error)")
    exit(1)
}
