import Testing

@testable import BlogModule

@Suite("Blog module")
struct BlogModuleTests {
    @Test("placeholder")
    func placeholder() {
        #expect(BlogModule.module.commands.count == 5)
    }
}
