import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The store across processes: what one process wrote, the next finds, also when the first was
/// killed in the middle of a write.
@Suite struct SQLiteStoreProcessTests {
    @Test func answersSurviveTheProcessThatSavedThem() async throws {
        let folder = try StoreFolder()
        let saved = try await StoreProbe.run(["save", folder.file.path, "0", "50", "2000"])
        #expect(saved.status == 0)
        #expect(saved.output == "saved 50\n")

        let check = try await StoreProbe.check(folder.file, first: 0, count: 50, bodyBytes: 2000)
        #expect(check == StoreProbe.Check(found: 50, intact: 50, movedAside: false))
        // And this process reads them too.
        #expect(await folder.store().answer(for: Answers.key(7)) != nil)
    }

    /// The probe saves 64 KiB answers in batches without pause and says after each which are on
    /// disk; it is killed with SIGKILL while it writes the next batch. Every answer it had
    /// reported comes back whole, the file is not taken for damaged, and of what it was writing
    /// each answer is there whole or not at all.
    @Test func answersSurviveAKillInTheMiddleOfAWrite() async throws {
        let folder = try StoreFolder()
        let (process, output) = try StoreProbe.start(["churn", folder.file.path, "65536"])
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let line = await StoreProbe.readLines(output) { line in
            line.hasPrefix("written ") && (Int(line.dropFirst(8)) ?? 0) >= 100
        }
        let reported = try #require(line.flatMap { Int($0.dropFirst(8)) })
        // The probe goes on saving the next batch without waiting: this kill lands in a write.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)

        let check = try await StoreProbe.check(folder.file, first: 0, count: reported, bodyBytes: 65536)
        #expect(check == StoreProbe.Check(found: reported, intact: reported, movedAside: false))
        let after = try await StoreProbe.check(folder.file, first: reported, count: 200, bodyBytes: 65536)
        #expect(after.found == after.intact)
        #expect(!after.movedAside)
    }
}
