// BackstopJSON's ResilientJSONDecoder against Foundation's JSONDecoder, side by side.
//
// Every benchmark is named "<payload>/<decoder>", e.g. "twitter/Foundation",
// "twitter/BackstopJSON.lenient", "twitter/BackstopJSON.strict", so pairs line up in the output
// and `compare.sh` can compute the ratios.
//
// Each benchmark runs in its own process (ordo-one/benchmark spawns one per benchmark). Its
// setup loads or generates only its own payload, decodes it once to verify the result (a
// decoder that fails or disagrees with Foundation fails the benchmark with the reason, instead
// of being timed), then trims the heap so the verification does not inflate the memory metrics.
// The measured closure does nothing but decode the already-loaded bytes.

import BackstopJSON
import Benchmark
import BenchmarkPayloads
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [
            .wallClock, .throughput,
            .peakMemoryResident, .peakMemoryResidentDelta,
            .mallocCountTotal, .mallocBytesCount,
        ],
        warmupIterations: 3,
        maxDuration: .seconds(2),
        maxIterations: 1_000
    )

    for contender in Contender.allCases {
        registerDecoding("twitter", TwitterSearch.self, contender, load: { try Corpus.load("twitter.json") })
    }
    for contender in Contender.allCases {
        registerDecoding("citm_catalog", CITMCatalog.self, contender, load: { try Corpus.load("citm_catalog.json") })
    }
    for contender in Contender.allCases {
        registerDecoding("canada", FeatureCollection.self, contender, load: { try Corpus.load("canada.json") })
    }
    for contender in Contender.allCases {
        registerDecoding(
            "envelope20k.clean", Envelope.self, contender,
            load: { Data(EnvelopePayload.json(dirty: false).utf8) },
            expected: { Envelope(code: 200, msg: "OK", data: EnvelopeData(items: EnvelopePayload.items())) }
        )
    }
    // Small payloads, each decode with a fresh decoder as apps make one per call: what a call's
    // setup costs, which the large files hide.
    for contender in Contender.allCases {
        registerSmallPayload("small88", SmallUser.self, SmallUser.json, contender)
        registerSmallPayload("object1k", Profile.self, Profile.json, contender)
        registerSmallPayload("envelope10", Envelope.self, SmallEnvelope.json, contender)
    }
    // Foundation (and .strict) cannot decode the dirty variant, so only the lenient decoder runs it.
    registerDirtyEnvelope()
    registerEnvelopeUnwrapping()
    registerHostileShapes()
    registerRepairCost()
    registerInterleaved()
}

/// The decoders under comparison.
enum Contender: String, CaseIterable, Sendable {
    case foundation = "Foundation"
    case lenient = "BackstopJSON.lenient"
    case strict = "BackstopJSON.strict"

    func decoder<T: Decodable>(for _: T.Type) -> (Data) throws -> T {
        switch self {
        case .foundation:
            let decoder = JSONDecoder()
            return { try decoder.decode(T.self, from: $0) }
        case .lenient:
            let decoder = ResilientJSONDecoder(policy: .lenient)
            return { try decoder.decode(T.self, from: $0) }
        case .strict:
            let decoder = ResilientJSONDecoder(policy: .strict)
            return { try decoder.decode(T.self, from: $0) }
        }
    }
}

/// What a benchmark's setup hands to its measured closure.
struct Prepared<T> {
    let data: Data
    let decode: (Data) throws -> T
}

func registerDecoding<T: Decodable & Equatable>(
    _ payload: String,
    _ type: T.Type,
    _ contender: Contender,
    load: @escaping () throws -> Data,
    expected: (() -> T)? = nil
) {
    Benchmark("\(payload)/\(contender.rawValue)") { (benchmark: Benchmark, prepared: Prepared<T>) throws in
        for _ in benchmark.scaledIterations {
            blackHole(try prepared.decode(prepared.data))
        }
    } setup: {
        let data = try load()
        // Foundation's result is the reference every BackstopJSON policy must reproduce exactly.
        let reference: T
        do {
            reference = try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw VerificationFailure("Foundation.JSONDecoder failed to decode \(payload) as \(T.self): \(String(reflecting: error))")
        }
        if let expected, reference != expected() {
            throw VerificationFailure(
                "\(payload): Foundation decoded something other than the generated items\n"
                    + firstDifference(reference, expected()))
        }
        switch contender {
        case .foundation:
            break
        case .strict, .lenient:
            var decoder = ResilientJSONDecoder()
            decoder.policy = contender == .strict ? .strict : .lenient
            let report: DecodingReport<T>
            do {
                report = try decoder.decodeWithReport(T.self, from: data)
            } catch {
                throw VerificationFailure("\(contender.rawValue) failed to decode \(payload) as \(T.self): \(String(reflecting: error))")
            }
            if report.value != reference {
                throw VerificationFailure(
                    "\(contender.rawValue) decoded \(payload) differently from Foundation\n"
                        + firstDifference(report.value, reference))
            }
            if !report.repairs.isEmpty {
                throw VerificationFailure(
                    "\(contender.rawValue) made \(report.repairs.count) repairs on valid \(payload), e.g.\n"
                        + report.repairs.prefix(5).map { "  \($0)" }.joined(separator: "\n"))
            }
        }
        trimHeap()
        return Prepared(data: data, decode: contender.decoder(for: T.self))
    }
}

/// A small payload decoded 1,000 times per iteration, each time by a decoder made for the call.
func registerSmallPayload<T: Decodable & Equatable>(_ payload: String, _ type: T.Type, _ data: Data, _ contender: Contender) {
    Benchmark("\(payload)/\(contender.rawValue)", configuration: .init(scalingFactor: .kilo)) { benchmark in
        for _ in benchmark.scaledIterations {
            switch contender {
            case .foundation: blackHole(try JSONDecoder().decode(T.self, from: data))
            case .lenient: blackHole(try ResilientJSONDecoder(policy: .lenient).decode(T.self, from: data))
            case .strict: blackHole(try ResilientJSONDecoder(policy: .strict).decode(T.self, from: data))
            }
        }
    } setup: {
        let reference = try JSONDecoder().decode(T.self, from: data)
        if contender != .foundation {
            let report = try ResilientJSONDecoder(policy: contender == .strict ? .strict : .lenient).decodeWithReport(T.self, from: data)
            guard report.value == reference, report.repairs.isEmpty else {
                throw VerificationFailure("\(contender.rawValue) decoded \(payload) differently from Foundation")
            }
        }
    }
}

func registerDirtyEnvelope() {
    Benchmark("envelope20k.dirty/\(Contender.lenient.rawValue)") { (benchmark: Benchmark, prepared: Prepared<Envelope>) throws in
        for _ in benchmark.scaledIterations {
            blackHole(try prepared.decode(prepared.data))
        }
    } setup: {
        let data = Data(EnvelopePayload.json(dirty: true).utf8)
        if (try? JSONDecoder().decode(Envelope.self, from: data)) != nil {
            throw VerificationFailure("envelope20k.dirty: Foundation decoded it; the payload is not dirty")
        }
        if (try? ResilientJSONDecoder(policy: .strict).decode(Envelope.self, from: data)) != nil {
            throw VerificationFailure("envelope20k.dirty: BackstopJSON.strict decoded it; the payload is not dirty")
        }
        let report: DecodingReport<Envelope>
        do {
            report = try ResilientJSONDecoder(policy: .lenient).decodeWithReport(Envelope.self, from: data)
        } catch {
            throw VerificationFailure("BackstopJSON.lenient failed to decode envelope20k.dirty: \(String(reflecting: error))")
        }
        let expected = Envelope(code: 200, msg: "OK", data: EnvelopeData(items: EnvelopePayload.expectedLenientDirtyItems()))
        if report.value != expected {
            throw VerificationFailure(
                "BackstopJSON.lenient repaired envelope20k.dirty into something unexpected\n"
                    + firstDifference(report.value, expected))
        }
        if report.repairs.count != EnvelopePayload.brokenItemCount {
            throw VerificationFailure(
                "BackstopJSON.lenient reported \(report.repairs.count) repairs on envelope20k.dirty, "
                    + "expected \(EnvelopePayload.brokenItemCount), e.g.\n"
                    + report.repairs.prefix(10).map { "  \($0)" }.joined(separator: "\n"))
        }
        trimHeap()
        return Prepared(data: data, decode: Contender.lenient.decoder(for: Envelope.self))
    }
}

struct VerificationFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The first line where the `dump`s of two values differ, with a little context.
func firstDifference<T>(_ actual: T, _ expected: T) -> String {
    var a = ""
    var e = ""
    dump(actual, to: &a)
    dump(expected, to: &e)
    let al = a.split(separator: "\n", omittingEmptySubsequences: false)
    let el = e.split(separator: "\n", omittingEmptySubsequences: false)
    let common = min(al.count, el.count)
    let index = (0..<common).first(where: { al[$0] != el[$0] }) ?? common
    let lo = max(0, index - 3)
    func excerpt(_ lines: [Substring]) -> String {
        lines[min(lo, lines.count)..<min(index + 2, lines.count)].joined(separator: "\n")
    }
    return "first difference at dump line \(index + 1):\n--- got:\n\(excerpt(al))\n--- expected:\n\(excerpt(el))"
}

/// Returns freed heap pages to the OS (glibc's `malloc_trim`, which Swift's Glibc module does not
/// export, so it is looked up at run time) so the resident-memory metrics see the decode, not setup.
func trimHeap() {
    #if canImport(Glibc)
        typealias MallocTrim = @convention(c) (Int) -> Int32
        if let symbol = dlsym(nil, "malloc_trim") {
            _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
        }
    #endif
}
