import CSystem
import Glibc
import Testing

/// The executable's `.bss`, made present before the client starts its threads
/// (`oceq_populate_static_zero_data`, called first thing by the `oceq` executable).
@Suite("Static zero data: the executable's .bss made present at start")
struct StaticZeroDataTests {
    @Test("the range is whole pages of this executable's .bss, and every page is present once populated")
    func populated() throws {
        var start: UnsafeMutableRawPointer?
        var length = 0
        oceq_static_zero_data(&start, &length)
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let base = try #require(start)
        #expect(length > 0)
        #expect(Int(bitPattern: base) % page == 0)
        #expect(length % page == 0)

        let result = oceq_populate_static_zero_data()
        // Before Linux 5.14 madvise does not know MADV_POPULATE_WRITE: nothing is populated, and the
        // executable goes on as before.
        if result != 0 {
            #expect(errno == EINVAL)
            return
        }
        var resident = [UInt8](repeating: 0, count: length / page)
        #expect(mincore(base, length, &resident) == 0)
        #expect(resident.allSatisfy { $0 & 1 == 1 }, "pages not present: \(resident.filter { $0 & 1 == 0 }.count)")
    }
}
