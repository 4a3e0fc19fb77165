import BackstopJSON
import Foundation
import Testing

/// Apps decode on background threads, whose stacks are small (512 KiB on Apple platforms),
/// so the deepest document the parser accepts must decode there too, not overflow the stack.
@Suite struct DeepNestingTests {
    /// Runs `body` on a thread with the given stack size and returns what it returned.
    private func onThread<R: Sendable>(stackSize: Int, _ body: @escaping @Sendable () -> R) async -> R {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: body()) }
            thread.stackSize = stackSize
            thread.start()
        }
    }

    @Test(arguments: [DecodingPolicy.strict, .lenient])
    func deepestAcceptedDocumentDecodesAsJSONValueOnASmallStack(policy: DecodingPolicy) async {
        let depth = 512
        let json = String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
        let value = await onThread(stackSize: 512 * 1024) {
            try? ResilientJSONDecoder(policy: policy).decode(JSONValue.self, from: Data(json.utf8))
        }
        var level = value
        var levels = 0
        while case .array(let elements)? = level {
            levels += 1
            level = elements.first
        }
        #expect(levels == depth)
        #expect(level == .integer(1))
    }

    @Test func oneLevelDeeperIsAnErrorNotACrash() async {
        let json = String(repeating: "{\"a\":", count: 513) + "1" + String(repeating: "}", count: 513)
        let failed = await onThread(stackSize: 512 * 1024) {
            (try? ResilientJSONDecoder().decode(JSONValue.self, from: Data(json.utf8))) == nil
        }
        #expect(failed)
    }
}
