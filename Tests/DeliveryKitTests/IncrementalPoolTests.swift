import DeliveryKit
import FoundationEssentials
import OCEQCore
import OCEQTestSupport
import Testing

@testable import DeliveryTransport

#if canImport(Glibc)
    import Glibc
#endif

/// A download pool fed one job at a time (`download(next:)`, as `download` plans each item when
/// the pool has room for it): the first files transfer while the next jobs are still being made,
/// the concurrency limit holds, and results come back in the order the jobs were handed out.
@Suite("A download pool fed one job at a time")
struct IncrementalPoolTests {
    @Test("files transfer while jobs are still handed out; the limit holds; results keep the jobs' order")
    func fedAsItGoes() async throws {
        let inFlight = TransferLaneTests.InFlight()
        let server = try LoopbackServer { request in
            inFlight.enter()
            defer { inFlight.leave() }
            usleep(1_000)
            return .respond(
                status: 200, body: Array(repeating: UInt8(TransferLaneTests.id(request).count), count: 5_000))
        }
        defer { server.stop() }
        let folder = temporaryFolder()
        let jobs = TransferLaneTests.jobs(24, in: folder)
        let client = try CurlTransportTests.client(server)
        var handedOut = 0
        var requestsSeenBeforeTheLast = 0
        var indices: [Int] = []
        let results = await client.download(
            next: { () async -> DownloadJob? in
                guard handedOut < jobs.count else { return nil }
                if handedOut == jobs.count - 1 {
                    // The last job is handed out only once files have been requested: a pool that
                    // waited for every job before starting would never get here.
                    for _ in 0..<2000 where server.requests.count == 0 { try? await Task.sleep(for: .milliseconds(5)) }
                    requestsSeenBeforeTheLast = server.requests.count
                }
                handedOut += 1
                return jobs[handedOut - 1]
            }, maxConcurrent: 3, finished: { index, _ in indices.append(index) })
        #expect(requestsSeenBeforeTheLast > 0)
        #expect(results.count == jobs.count)
        for (job, result) in zip(jobs, results) {
            #expect((try? result.get())?.path == job.path, "result \(job.name) is in its job's place")
            #expect(readFile(job.path) == Array(repeating: UInt8(job.name.count), count: 5_000))
        }
        #expect(Set(indices) == Set(0..<jobs.count) && indices.count == jobs.count)
        #expect(inFlight.most <= 3)
        #expect(server.requests.count == jobs.count)
    }

    @Test("a job aiming at the target of an earlier one fails alone, in its place")
    func repeatedTarget() async throws {
        let server = try LoopbackServer { _ in .respond(status: 200, body: Array(repeating: 7, count: 100)) }
        defer { server.stop() }
        let folder = temporaryFolder()
        var jobs = TransferLaneTests.jobs(4, in: folder)
        jobs[2] = jobs[0]
        var remaining = jobs.makeIterator()
        let results = try await CurlTransportTests.client(server).download(next: { remaining.next() }, maxConcurrent: 2)
        #expect(results.count == 4)
        #expect((try? results[0].get()) != nil && (try? results[1].get()) != nil && (try? results[3].get()) != nil)
        guard case .failure(.invalidRequest(let message)) = results[2] else {
            Issue.record("the repeated target did not fail: \(results[2])")
            return
        }
        #expect(message.contains("target of another download"))
    }
}

/// `DeliveryClient.fetchDeferred`: a page checked whole, its items built one at a time.
@Suite("A page of a list read with its items built one at a time")
struct DeferredPageTests {
    @Test("items before one of the wrong shape decode; that one fails alone with its path")
    func wrongShapeInTheMiddle() async throws {
        let body = #"{"hasMore":false,"count":3,"items":[{"id":"A","name":"a"},{"name":"no id"},{"id":"C"}]}"#
        let server = try LoopbackServer { _ in
            .respond(status: 200, headers: [("Content-Type", "application/json")], body: Array(body.utf8))
        }
        defer { server.stop() }
        let client = try CurlTransportTests.client(server)
        let page = try await client.fetchDeferred(DeliveryAPI.listAssets()) { reader, path in
            try Asset(json: try reader.value(), path: path)
        }
        #expect(page.count == 3 && page.page.count == 3 && !page.page.hasMore)
        #expect(try page.item(0).id == "A")
        #expect(try page.item(2).id == "C")
        #expect(throws: DeliveryError.self) { _ = try page.item(1) }
        do {
            _ = try page.item(1)
        } catch {
            #expect("\(error)".contains("items[1]"), "\(error)")
        }
    }

    @Test("a page answered ahead is taken by the fetch of the same request read the same way, and only by it")
    func answerAheadTakenOnce() async throws {
        let body = #"{"hasMore":false,"count":1,"items":[{"id":"A","name":"a"}]}"#
        let server = try LoopbackServer { _ in
            .respond(status: 200, headers: [("Content-Type", "application/json")], body: Array(body.utf8))
        }
        defer { server.stop() }
        let client = try CurlTransportTests.client(server)
        let decode: DeferredElementReader<Asset> = { reader, path in try Asset(json: try reader.value(), path: path) }
        client.sendAhead(deferring: DeliveryAPI.listAssets(), element: decode)
        // A whole-page fetch of the same request does not take the deferred answer.
        _ = try await client.fetch(DeliveryAPI.listAssets())
        // Both reached the server (the one ahead may arrive after the fetch's own).
        try await TransferLaneTests.waitForRequests(server, 2)
        #expect(server.requests.count == 2)
        let page = try await client.fetchDeferred(DeliveryAPI.listAssets(), element: decode)
        #expect(try page.item(0).id == "A")
        #expect(server.requests.count == 2, "the deferred fetch took the answer sent ahead")
        _ = try await client.fetchDeferred(DeliveryAPI.listAssets(), element: decode)
        #expect(server.requests.count == 3, "an answer ahead is used once")
    }
}

extension DeferredPageTests {
    @Test("the next page is asked for as soon as a page arrives, and taken from there when its turn comes")
    func nextPageAhead() async throws {
        let server = try LoopbackServer { request in
            let offset = request.target.contains("offset=2") ? 2 : request.target.contains("offset=4") ? 4 : 0
            let body =
                #"{"hasMore":\#(offset < 4),"offset":\#(offset),"count":2,"items":[{"id":"I\#(offset)"},{"id":"I\#(offset + 1)"}]}"#
            return .respond(status: 200, headers: [("Content-Type", "application/json")], body: Array(body.utf8))
        }
        defer { server.stop() }
        let client = try CurlTransportTests.client(server)
        var pages = client.deferredPages(DeliveryAPI.listAssets().limit(2)) { reader, path in
            try Asset(json: try reader.value(), path: path)
        }
        var ids: [String] = []
        var page = try await pages.next()
        while let current = page {
            // The following page was sent for when this one arrived.
            if current.page.hasMore { try await TransferLaneTests.waitForRequests(server, ids.count / 2 + 2) }
            for position in 0..<current.count { ids.append(try current.item(position).id) }
            page = try await pages.next()
        }
        #expect(ids == ["I0", "I1", "I2", "I3", "I4", "I5"])
        #expect(server.requests.count == 3, "each page asked for once")
    }
}
