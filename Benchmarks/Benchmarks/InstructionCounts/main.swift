// Decodes one payload a given number of times, for `valgrind --tool=callgrind` to count the
// instructions (`Benchmarks/instructions.sh` runs it): counts do not move with the machine's
// load, so a change's effect shows even on a shared 2-core VM where wall clocks wander.
//
//   InstructionCounts <payload> <decoder> <iterations>
//
// payload: small88, object1k, envelope10, twitter, citm_catalog, canada, envelope20k
// decoder: Foundation, lenient, strict. Each iteration makes a fresh decoder, as apps do per call.

import BackstopJSON
import BenchmarkPayloads
import Foundation

struct Usage: Error, CustomStringConvertible {
    var description: String
}

func payload(_ name: String) throws -> (Data, (Data, String) throws -> Void) {
    func decoding<T: Decodable>(_ type: T.Type) -> (Data, String) throws -> Void {
        { data, decoder in
            switch decoder {
            case "Foundation": _ = try JSONDecoder().decode(T.self, from: data)
            case "lenient": _ = try ResilientJSONDecoder(policy: .lenient).decode(T.self, from: data)
            case "strict": _ = try ResilientJSONDecoder(policy: .strict).decode(T.self, from: data)
            default: throw Usage(description: "unknown decoder \(decoder)")
            }
        }
    }
    switch name {
    case "small88": return (SmallUser.json, decoding(SmallUser.self))
    case "object1k": return (Profile.json, decoding(Profile.self))
    case "envelope10": return (SmallEnvelope.json, decoding(Envelope.self))
    case "twitter": return (try Corpus.load("twitter.json"), decoding(TwitterSearch.self))
    case "citm_catalog": return (try Corpus.load("citm_catalog.json"), decoding(CITMCatalog.self))
    case "canada": return (try Corpus.load("canada.json"), decoding(FeatureCollection.self))
    case "envelope20k": return (Data(EnvelopePayload.json(dirty: false).utf8), decoding(Envelope.self))
    default: throw Usage(description: "unknown payload \(name)")
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 4, let iterations = Int(arguments[3]) else {
    print("usage: InstructionCounts <payload> <Foundation|lenient|strict> <iterations>")
    exit(2)
}
do {
    let (data, decode) = try payload(arguments[1])
    for _ in 0..<iterations { try decode(data, arguments[2]) }
} catch {
    print("InstructionCounts: \(error)")
    exit(1)
}
