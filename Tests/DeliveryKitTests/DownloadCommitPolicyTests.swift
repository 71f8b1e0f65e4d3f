import Testing

@_spi(Testing) @testable import DeliveryTransport

@Suite("Download pool: batches fitted to the descriptors left")
struct DownloadCommitPolicyTests {
    @Test("batches shrink to what a low descriptor limit leaves; the usual limit leaves them as they are")
    func policyFitsDescriptors() {
        let standard = DownloadCommitPolicy.standard
        #expect(standard.fitting(descriptors: 1024 - 32, transfers: 8).maxFiles == 128)
        #expect(standard.fitting(descriptors: 100, transfers: 8).maxFiles == 28)
        #expect(standard.fitting(descriptors: 8, transfers: 2).maxFiles == 1)
        #expect(standard.fitting(descriptors: 0, transfers: 1).maxFiles == 1, "never none")
        #expect(standard.fitting(descriptors: 100, transfers: 8).maxDelay == standard.maxDelay)
    }

}
