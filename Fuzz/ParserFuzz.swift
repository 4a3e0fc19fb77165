// libFuzzer entry for the parser: any bytes, strict and lenient, must give a value or a
// DecodingError, never a crash, hang or runaway memory.
import BackstopJSON
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzParser(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    _ = try? ResilientJSONDecoder(policy: .strict).decode(JSONValue.self, from: data)
    _ = try? ResilientJSONDecoder(policy: .lenient).decodeWithReport(JSONValue.self, from: data)
    if let parsed = try? ParsedJSON(data) {
        _ = parsed.kind(at: ["data"])
        _ = parsed.value(at: ["result", "data"])
        _ = parsed.excerpt()
    }
    return 0
}
