// The hostile channel's last rows (issue 10, part 3): `download`, `mirror` and Tab completion over an
// export whose names are paths, device names, control characters and 300-character strings. Nothing
// is written outside the target folders, and no control byte from the content reaches the output or
// a completion candidate.

import DeliveryKit
import Foundation
import OCEQApp
import OCEQCore
import OCEQTestSupport
import Testing

@testable import OCEQShell

@MainActor
@Suite("Hostile channel: download, mirror and completion", .serialized)
struct HostileTransferTests {
    @Test("download and mirror write only inside their folders, under safe names")
    func transfers() async throws {
        let channel = try HostileChannelTests.makeChannel(hugeBytes: 64 * 1024)
        defer { try? FileManager.default.removeItem(atPath: channel.folder) }
        // The targets sit three levels down a sandbox, so `../../x` from them still lands in it.
        let sandbox = NSTemporaryDirectory() + "oceq-hostile-out-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: sandbox) }
        let downloads = sandbox + "/a/b/download"
        let renditions = sandbox + "/a/b/renditions"
        let mirror = sandbox + "/a/b/mirror"
        let statements = [
            "download (list type=Image limit 500) to \(downloads)",
            "download (list limit 500) to \(downloads)",
            "download (list type=Image limit 20) rendition Thumbnail to \(renditions)",
            "mirror \(mirror)",
        ]
        let run = try await HostileChannelTests.runChecked(
            [], input: statements.joined(separator: "\n") + "\n", over: channel)
        #expect(run.stdoutText.contains("download to \(downloads)"), "\(run.stdoutText.prefix(2000))")
        // Everything written is under the three targets.
        let written = FileManager.default.enumerator(atPath: sandbox)?.allObjects as? [String] ?? []
        let outside = written.filter {
            !["a", "a/b", "a/b/download", "a/b/renditions", "a/b/mirror"].contains($0)
                && !$0.hasPrefix("a/b/download/") && !$0.hasPrefix("a/b/renditions/") && !$0.hasPrefix("a/b/mirror/")
        }
        #expect(outside.isEmpty, "written outside the targets: \(outside)")
        #expect(!FileManager.default.fileExists(atPath: "/abs"))
        // Every downloaded name is one safe path component: no control characters, short enough.
        let names = (try? FileManager.default.contentsOfDirectory(atPath: downloads)) ?? []
        #expect(names.count > 1, "\(names)")
        for name in names {
            #expect(!name.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(name.debugDescription)")
            #expect(name.utf8.count <= 255 && !name.hasSuffix(".part") && name != "." && name != "..")
        }
        // The mirror is an export `oceq serve` can read again.
        #expect(FileManager.default.fileExists(atPath: mirror + "/contentexport/metadata.json"))
    }

    @Test("completion candidates over the hostile channel carry no control characters")
    func completion() throws {
        let channel = try HostileChannelTests.makeChannel(hugeBytes: 16 * 1024)
        defer { try? FileManager.default.removeItem(atPath: channel.folder) }
        let connection = try Connection.open(
            Credentials(url: channel.folder, channelToken: nil), opener: InProcessServer())
        let (session, _, _) = makeSession(connection: connection)
        let completer = Completer(source: SessionCompletionSource(session: session, timeout: .seconds(20)))
        let lines = [
            "list type=", "list type=OCEGettingStartedArticle ", "list type=OCEGettingStartedArticle topic=",
            "list type=OCEGettingStartedArticle author=", "list type=OCEGettingStartedTopic name=",
        ]
        var seen = 0
        for line in lines {
            let completion = completer.complete(line: line, cursor: line.count)
            seen += completion.candidates.count
            for candidate in completion.candidates {
                for text in [candidate.text, candidate.display] {
                    #expect(
                        !text.unicodeScalars.contains {
                            $0.value < 0x20 || $0.value == 0x7F || (0x80...0x9F).contains($0.value)
                        }, "\(line): \(text.debugDescription)")
                }
            }
        }
        #expect(seen > 10, "the completer offered \(seen) candidates")
    }
}
