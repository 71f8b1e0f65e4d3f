import OCEQCore
import Testing

@Suite("Finding an item by name")
struct NameMatchTests {
    let names = ["Recipes", "Roasting", "recipes (old)", "Brewing", "Tasting notes"]

    @Test("exactly, then in any case, then the one name starting with it, then the one containing it")
    func order() {
        #expect(NameMatch.find("Recipes", in: names) == .found(0))
        #expect(NameMatch.find("ROASTING", in: names) == .found(1))
        #expect(NameMatch.find("brew", in: names) == .found(3))
        #expect(NameMatch.find("notes", in: names) == .found(4))
    }

    @Test("several that fit equally are ambiguous; none is a miss with the closest name")
    func misses() {
        #expect(NameMatch.find("R", in: names) == .ambiguous([0, 1, 2]))
        #expect(NameMatch.find("recip", in: names) == .ambiguous([0, 2]))
        #expect(NameMatch.find("Brewnig", in: names) == .none(suggestion: "Brewing"))
        #expect(NameMatch.find("zzz", in: names) == .none(suggestion: nil))
    }
}
