import Testing

@_spi(Testing) @testable import DeliveryTransport

@Suite("Download pool: batches fitted to the descriptors left")
struct DownloadCommitPolicyTests {
    @Test("transfers and batches shrink to what a low descriptor limit leaves; the usual limit leaves them as they are")
    func policyFitsDescriptors() {
        let standard = DownloadCommitPolicy.standard
        let usual = standard.fitting(descriptors: 1024 - 32, maxConcurrent: 8)
        #expect(usual.transfers == 8 && usual.policy == standard)
        let low = standard.fitting(descriptors: 100, maxConcurrent: 8)
        #expect(low.transfers == 8 && low.policy.maxFiles == 28 && low.policy.maxDelay == standard.maxDelay)
        let lower = standard.fitting(descriptors: 16, maxConcurrent: 8)
        #expect(lower.transfers == 4 && lower.policy.maxFiles == 2)
        let none = standard.fitting(descriptors: 0, maxConcurrent: 8)
        #expect(none.transfers == 1 && none.policy.maxFiles == 1, "never none")
        #expect(standard.fitting(descriptors: 1024, maxConcurrent: 2).transfers == 2)
    }
}
