import DeliveryKit
import DeliveryTransport
import Foundation
import OCEQCore
import OCEQTestSupport

/// A retry clock that never waits: each sleep advances its time and is recorded.
final class FakeClock: RetryClock {
    private let state = Locked<(now: Double, sleeps: [Double])>((0, []))

    /// The waits the client asked for, in order.
    var sleeps: [Double] { state.withLock { $0.sleeps } }

    func now() -> Double { state.withLock { $0.now } }

    func wallClock() -> Date { Date(timeIntervalSince1970: 1_700_000_000 + now()) }

    func sleep(seconds: Double) async throws {
        try Task.checkCancellation()
        state.withLock {
            $0.now += seconds
            $0.sleeps.append(seconds)
        }
    }
}

/// Collects values from any thread.
final class Recorder<Value: Sendable>: Sendable {
    private let values = Locked<[Value]>([])

    func append(_ value: Value) { values.withLock { $0.append(value) } }

    var all: [Value] { values.withLock { $0 } }
}

/// A counter shared between threads.
final class Counter: Sendable {
    private let value = Locked(0)

    /// Adds one and returns the new count.
    func increment() -> Int {
        value.withLock {
            $0 += 1
            return $0
        }
    }
}

/// A fresh empty folder under the temporary directory, removed by `removeFolder`.
func temporaryFolder() -> String {
    TestTemporary.make("oceq-e2e-files")
}

func removeFolder(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
}

/// A whole file's bytes, or nil when it is missing.
func fileBytes(_ path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map { Array($0) }
}

func fileExists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

/// The names in a folder, sorted.
func folderEntries(_ path: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
}

/// The image format named by a file's first bytes.
enum ImageMagic: String, Sendable {
    case jpeg
    case png
    case webp

    init?(_ bytes: [UInt8]) {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WEBP".utf8) {
            self = .webp
        } else {
            return nil
        }
    }

    /// The magic expected for a rendition `format` parameter.
    init?(format: String) {
        switch format {
        case "jpg", "jpeg": self = .jpeg
        case "png": self = .png
        case "webp": self = .webp
        default: return nil
        }
    }
}

extension Result {
    /// The failure, if this is one.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
