// "Did you mean": the closest candidate by edit distance, else the one candidate a word begins.

import OCEQCore
import Testing

@Suite("Did-you-mean suggestions")
struct SuggestionsTests {
    static let fields = ["id", "name", "slug", "createdDate", "updatedDate", "published_date", "image", "image_16x9"]

    @Test("a misspelling within two edits gets the closest candidate; a word that is one gets none")
    func closeWords() {
        #expect(Suggestions.closest(to: "nmae", among: Self.fields) == "name")
        #expect(Suggestions.closest(to: "publshed_date", among: Self.fields) == "published_date")
        #expect(Suggestions.closest(to: "name", among: Self.fields) == nil)
    }

    @Test("a word that begins exactly one candidate gets it (show's labels 'updated' and 'created')")
    func uniquePrefix() {
        #expect(Suggestions.closest(to: "updated", among: Self.fields) == "updatedDate")
        #expect(Suggestions.closest(to: "Created", among: Self.fields) == "createdDate")
        #expect(Suggestions.closest(to: "published", among: Self.fields) == "published_date")
    }

    @Test("a prefix of several candidates, or of two letters, gets nothing")
    func ambiguousPrefix() {
        #expect(Suggestions.closest(to: "ima", among: ["image", "image_16x9"]) == nil)
        #expect(Suggestions.closest(to: "sl", among: ["slug", "slider"]) == nil)
        #expect(Suggestions.closest(to: "zzz", among: Self.fields) == nil)
    }
}
