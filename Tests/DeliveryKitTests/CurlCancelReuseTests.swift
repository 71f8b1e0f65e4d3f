import DeliveryKit
import DeliveryTransport
import FoundationEssentials
import OCEQCore
import Testing

/// Handles of transfers cancelled in mid-body must not poison later transfers: a QA run found that
/// after Ctrl-C in a `download` batch, every later parallel download in the REPL failed with
/// "A libcurl function was given a bad argument (curl 43)" (a recycled handle refused
/// CURLOPT_BUFFERSIZE).
@Suite("CurlTransport after cancellations")
struct CurlCancelReuseTests {
    @Test("transfers cancelled in mid-body leave the transport able to run parallel transfers")
    func parallelAfterCancel() async throws {
        let server = try LoopbackServer { request in
            if request.target.contains("STALL") {
                // Long enough that the stall outlasts a starved test run: with the cooperative pool busy
                // the 300 ms sleep below once took over 5 s, the stall ended first, and the transfers
                // failed as cut short instead of cancelled. Stopping the server does not wait for it.
                return .stall(
                    body: Array(repeating: UInt8(ascii: " "), count: 2000), declaredLength: 100_000, seconds: 120)
            }
            let id = request.target.split(separator: "/").last!.split(separator: "?").first!
            return .text(200, #"{"id":"\#(id)","type":"T"}"#)
        }
        let client = try CurlTransportTests.client(server)
        let stalled = (0..<4).map { index in
            Task { try await client.fetch(DeliveryAPI.readAsset(id: "STALL\(index)")) }
        }
        try await Task.sleep(for: .milliseconds(300))
        for task in stalled { task.cancel() }
        for task in stalled {
            guard case .failure(let error as DeliveryError) = await task.result, case .cancelled = error else {
                Issue.record("expected a cancelled transfer")
                continue
            }
        }
        let ids = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<8 {
                group.addTask { try await client.fetch(DeliveryAPI.readAsset(id: "CORE\(index)")).id }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(ids == Set((0..<8).map { "CORE\($0)" }))
        server.stop()
    }
}
