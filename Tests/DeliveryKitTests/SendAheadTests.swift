import DeliveryKit
import DeliveryTransport
import Testing

@Suite("DeliveryClient.sendAhead: a request sent before it is needed")
struct SendAheadTests {
    /// Waits (a bounded number of yields) until `stub` has seen `count` requests.
    static func waitForRequests(_ stub: StubTransport, _ count: Int) async {
        for _ in 0..<10_000 where stub.requests.count < count { await Task.yield() }
    }

    @Test("the next fetch of the same request takes the answer sent ahead: one request, the same item")
    func taken() async throws {
        let stub = ClientTests.scripted([.json(ClientTests.item)])
        let client = try makeClient(stub)
        client.sendAhead(DeliveryAPI.readAsset(id: "CORE1"))
        await Self.waitForRequests(stub, 1)
        let asset = try await client.fetch(DeliveryAPI.readAsset(id: "CORE1"))
        #expect(asset.id == "CORE1" && asset.name == "First")
        #expect(stub.requests.count == 1)
        // Taken once: the same request again is sent again.
        _ = try await client.fetch(DeliveryAPI.readAsset(id: "CORE1"))
        #expect(stub.requests.count == 2)
    }

    @Test("the request has reached the transport when sendAhead returns: it is sent on the caller's thread")
    func sentBeforeReturning() throws {
        let stub = ClientTests.scripted([.json(ClientTests.item)])
        let client = try makeClient(stub)
        client.sendAhead(DeliveryAPI.readAsset(id: "CORE1"))
        // No await in between: a task started on Swift's pool would not have run yet.
        #expect(stub.requests.count == 1)
        #expect(stub.requests.first?.url.contains("/items/CORE1") == true)
    }

    @Test("another request does not take it, and a copy of the client shares it")
    func otherRequest() async throws {
        let stub = ClientTests.scripted([.json(ClientTests.item)])
        let client = try makeClient(stub)
        client.sendAhead(DeliveryAPI.readAsset(id: "CORE1"))
        await Self.waitForRequests(stub, 1)
        _ = try await client.fetch(DeliveryAPI.readAsset(id: "CORE2"))
        #expect(stub.requests.count == 2)
        let copy = client
        _ = try await copy.fetch(DeliveryAPI.readAsset(id: "CORE1"))
        #expect(stub.requests.count == 2)
    }

    @Test("a failed answer is not taken: the request is sent again, and its own failure is the one thrown")
    func failureSentAgain() async throws {
        let stub = ClientTests.scripted([
            .json(#"{"detail":"busy"}"#, status: 500), .json(#"{"detail":"forbidden"}"#, status: 403),
        ])
        let client = try makeClient(stub)
        client.sendAhead(DeliveryAPI.readAsset(id: "CORE1"))
        await Self.waitForRequests(stub, 1)
        do {
            _ = try await client.fetch(DeliveryAPI.readAsset(id: "CORE1"))
            Issue.record("the 403 was not thrown")
        } catch {
            guard case .http(let failure) = error else { throw error }
            #expect(failure.status == 403)
        }
        #expect(stub.requests.count == 2)
    }

    @Test("an answer read without a member is taken only by a client that skips the same member")
    func skippedMember() async throws {
        let stub = ClientTests.scripted([.json(ClientTests.item)])
        let client = try makeClient(stub)
        client.skipping(members: ["name"]).sendAhead(DeliveryAPI.readAsset(id: "CORE1"))
        await Self.waitForRequests(stub, 1)
        let whole = try await client.fetch(DeliveryAPI.readAsset(id: "CORE1"))
        #expect(whole.name == "First")
        #expect(stub.requests.count == 2)
    }
}
