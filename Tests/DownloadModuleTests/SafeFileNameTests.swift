import DownloadModule
import Foundation
import OCEQCore
import Testing

/// Names from the server are hostile until sanitised: nothing may name a path outside the folder.
@Suite("Safe file names")
struct SafeFileNameTests {
    @Test(
        "hostile names become one plain file name",
        arguments: [
            ("../../etc/x", "_.._etc_x"),
            ("/abs", "_abs"),
            ("/etc/passwd", "_etc_passwd"),
            ("a\u{0}b", "a_b"),
            ("dir\\file.jpg", "dir_file.jpg"),
            ("..\\..\\win.ini", "_.._win.ini"),
            ("line\nbreak.png", "line_break.png"),
            ("\u{1B}[31mred\u{1B}[0m.jpg", "_[31mred_[0m.jpg"),
            ("tab\there", "tab_here"),
            ("del\u{7F}.txt", "del_.txt"),
            ("c1\u{9B}x.txt", "c1_x.txt"),
            ("bidi\u{202E}gpj.exe", "bidi_gpj.exe"),
            ("zero\u{200B}width", "zero_width"),
            ("a:b*c?d\"e<f>g|h.jpg", "a_b_c_d_e_f_g_h.jpg"),
            (".hidden", "hidden"),
            ("...dots.jpg", "dots.jpg"),
            ("trailing. . ", "trailing"),
            ("  spaced.jpg  ", "spaced.jpg"),
            ("CON", "_CON"),
            ("con.jpg", "_con.jpg"),
            ("nul.txt", "_nul.txt"),
            ("Com1.png", "_Com1.png"),
            ("LPT9", "_LPT9"),
            ("console.jpg", "console.jpg"),
            ("photo.jpg.part", "photo.jpg.part_"),
            ("photo.jpg.part.meta", "photo.jpg.part.meta_"),
            ("flat-white.jpg", "flat-white.jpg"),
            ("Café crème.jpg", "Café crème.jpg"),
        ])
    func hostile(_ input: String, _ expected: String) {
        let name = SafeFileName.sanitize(input, fallback: "CONT1")
        #expect(name == expected)
        #expect(!name.contains("/") && !name.contains("\\") && name != "." && name != "..")
        #expect(!name.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
    }

    @Test("empty names, dots and separators alone fall back to the asset id", arguments: ["", ".", "..", "   ", "..."])
    func empty(_ input: String) {
        #expect(SafeFileName.sanitize(input, fallback: "CONT0123") == "CONT0123")
        #expect(SafeFileName.sanitize(input, fallback: "") == "download")
    }

    @Test("a separator alone is not empty: it becomes an underscore")
    func separatorAlone() {
        #expect(SafeFileName.sanitize("/", fallback: "CONT0123") == "_")
        #expect(SafeFileName.sanitize("../", fallback: "CONT0123") == "_")
    }

    @Test("NFD and NFC spellings give the same NFC name")
    func normalisation() {
        let nfd = "Cafe\u{301}.jpg"
        let nfc = "Caf\u{E9}.jpg"
        #expect(SafeFileName.sanitize(nfd) == nfc)
        #expect(Array(SafeFileName.sanitize(nfd).utf8) == Array(nfc.utf8))
        var names = UniqueFileNames()
        #expect(names.claim(SafeFileName.sanitize(nfc)) == nfc)
        #expect(names.claim(SafeFileName.sanitize(nfd)) == "Caf\u{E9} (2).jpg")
    }

    @Test("a 300-character name is cut to 200 bytes at a character boundary, its extension kept")
    func long() {
        let ascii = SafeFileName.sanitize(String(repeating: "a", count: 300) + ".jpeg")
        #expect(ascii.utf8.count == 200)
        #expect(ascii.hasSuffix("a.jpeg"))
        let wide = SafeFileName.sanitize(
            String(repeating: "é", count: 150) + String(repeating: "😀", count: 20) + ".png")
        #expect(wide.utf8.count <= 200)
        #expect(wide.hasSuffix(".png"))
        #expect(wide.unicodeScalars.allSatisfy { $0 == "é" || $0 == "😀" || ".png".unicodeScalars.contains($0) })
        let noExtension = SafeFileName.sanitize(String(repeating: "b", count: 300))
        #expect(noExtension == String(repeating: "b", count: 200))
        let longExtension = SafeFileName.sanitize("x." + String(repeating: "e", count: 300))
        #expect(longExtension.utf8.count == 200)
    }

    @Test("duplicates get (2), (3) before the extension, ignoring case, and stay within the cap")
    func duplicates() {
        var names = UniqueFileNames()
        #expect(names.claim("photo.jpg") == "photo.jpg")
        #expect(names.claim("photo.jpg") == "photo (2).jpg")
        #expect(names.claim("PHOTO.jpg") == "PHOTO (3).jpg")
        #expect(names.claim("photo (2).jpg") == "photo (2) (2).jpg")
        #expect(names.claim("README") == "README")
        #expect(names.claim("readme") == "readme (2)")
        names.reserve("taken.png")
        #expect(names.claim("taken.png") == "taken (2).png")
        let long = SafeFileName.sanitize(String(repeating: "z", count: 300) + ".jpg")
        #expect(names.claim(long) == long)
        let second = names.claim(long)
        #expect(second.hasSuffix(" (2).jpg") && second.utf8.count <= SafeFileName.maximumBytes)
    }

    @Test("many copies of one name are numbered in order, past numbers already taken, each name once")
    func manyCopies() {
        var names = UniqueFileNames()
        names.reserve("image (3).jpg")
        var claimed = (0..<1000).map { _ in names.claim("image.jpg") }
        #expect(claimed[0] == "image.jpg" && claimed[1] == "image (2).jpg" && claimed[2] == "image (4).jpg")
        #expect(claimed[999] == "image (1001).jpg")
        #expect(Set(claimed).count == 1000 && !claimed.contains("image (3).jpg"))
        // Another spelling of the same name continues the same numbering; a copy's own name starts its own.
        #expect(names.claim("IMAGE.jpg") == "IMAGE (1002).jpg")
        claimed.append(names.claim("image (2).jpg"))
        #expect(claimed.last == "image (2) (2).jpg")
    }

    @Test("ASCII names compare in lower case as the Unicode path compares them; other names stay normalised")
    func comparisonKeys() {
        for name in ["photo.jpg", "PHOTO.JPG", "Photo (2).Jpg", "a-b_c.d", "README", "", "~!@#$%^&()[]{}.x"] {
            #expect(
                UniqueFileNames.key(name) == name.precomposedStringWithCanonicalMapping.lowercased(), "\(name)")
        }
        #expect(UniqueFileNames.key("Caf\u{E9}.JPG") == "caf\u{E9}.jpg")
        #expect(UniqueFileNames.key("Cafe\u{301}.jpg") == "caf\u{E9}.jpg")
        var names = UniqueFileNames()
        #expect(names.claim("Caf\u{E9}.jpg") == "Caf\u{E9}.jpg")
        #expect(names.claim("CAFE\u{301}.JPG") == "CAFE\u{301} (2).JPG")
        #expect(names.isTaken("cafe\u{301}.jpg"))
        #expect(!names.isTaken("cafe.jpg"))
    }

    @Test(
        "a name splits at its last dot into stem and extension, unless the dot leads, the extension is long or has a space, or the dot is part of a character",
        arguments: [
            ("photo.jpg", "photo", ".jpg"), ("archive.tar.gz", "archive.tar", ".gz"), (".hidden", ".hidden", ""),
            ("README", "README", ""), ("trailing.", "trailing", "."),
            ("a.very-long-extension-x", "a.very-long-extension-x", ""),
            ("v1.2 final", "v1.2 final", ""), ("caf\u{E9}.jp\u{E9}g", "caf\u{E9}", ".jp\u{E9}g"),
            ("photo.\u{301}jpg", "photo.\u{301}jpg", ""), ("a.b.\u{301}c", "a", ".b.\u{301}c"),
        ])
    func split(name: String, stem: String, ext: String) {
        let parts = SafeFileName.split(name)
        #expect(parts.stem == stem && parts.extension == ext, "\(name): \(parts)")
    }

    @Test("whatever the input, the name is a single component that stays in the folder")
    func neverEscapes() {
        let pieces = ["..", "/", "\\", ".", "\u{0}", "\n", "a", "é", "e\u{301}", " ", "CON", ":", "\u{202E}"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let input = (0..<Int.random(in: 0...12, using: &generator)).map { _ in pieces.randomElement()! }.joined()
            let name = SafeFileName.sanitize(input, fallback: "CONT9")
            #expect(!name.isEmpty && name != "." && name != ".." && !name.hasPrefix("."), "\(input.debugDescription)")
            #expect(!name.contains("/") && !name.contains("\\") && !name.utf8.contains(0), "\(input.debugDescription)")
            #expect(name.utf8.count <= SafeFileName.maximumBytes)
            let resolved = URL(fileURLWithPath: "/folder").appendingPathComponent(name).standardized.path
            #expect(resolved.hasPrefix("/folder/"), "\(input.debugDescription) -> \(name)")
        }
    }

    @Test(
        "an ASCII name is cleaned on its bytes exactly as the general path cleans it",
        arguments: [
            "photo.jpg", "  ..hidden. ", "...", " ", "", "a/b\\c:d*e?f\"g<h>i|j", "tab\there\u{7F}", "CON", "nul.txt",
            "com1.JPG", "Lpt9", "COM10", "aux .txt", "x.PART", "x.part.META", "x.part.meta.", "OCEQ-Manifest.json",
            ".oceq-manifest.json", "con.part", "photo.part ", String(repeating: "a", count: 250) + ".jpeg",
            String(repeating: "b", count: 230) + ".averyveryverylongextension", "ends with dots...", "\r\n",
        ])
    func asciiFastPath(name: String) {
        #expect(SafeFileName.cleanASCII(name) == SafeFileName.cleanUnicode(name))
    }
}
