import DeliveryKit
import Foundation
import OCEQCore
import Testing

@testable import ChannelServer

/// The byte-level rewrites of the per-request work answer exactly what the String versions did.
@Suite("Per-request fast paths")
struct ServeFastPathTests {
    @Test(
        "a file's ETag hashes the same text as the interpolated form",
        arguments: [
            ("/cache/renditions/a/Medium-1024x646.jpg", 46316, 1_764_000_000, 123_456_789),
            ("/export/assets/Ünïcode/f.png", 0, 0, 0),
            ("", 7, 1, 999_999_999),
        ])
    func fileTags(path: String, size: Int, seconds: Int, nanoseconds: Int) {
        #expect(
            EntityTag.ofFile(path: path, size: size, seconds: seconds, nanoseconds: nanoseconds)
                == EntityTag.of("\(path)|\(size)|\(seconds).\(nanoseconds)"))
    }

    @Test("Content-Disposition: one _ per scalar outside printable ASCII, the name percent-encoded")
    func disposition() {
        func header(_ name: String, _ mime: String, _ download: String? = nil) -> String {
            DeliveryRouter.disposition(fileName: name, mimeType: mime, download: download)
        }
        let quoted = "Ünï \"q\" \\ x.jpg"
        #expect(
            header(quoted, "image/jpeg")
                == "inline; filename=\"_n_ _q_ _ x.jpg\"; filename*=UTF-8''\(URLEncoding.component(quoted))")
        // An emoji is one scalar (four bytes), a combining accent another; tab and DEL are replaced.
        let odd = "a\u{7F}b😀\tc e\u{301}.pdf"
        #expect(
            header(odd, "application/pdf")
                == "attachment; filename=\"a_b__c e_.pdf\"; filename*=UTF-8''\(URLEncoding.component(odd))")
        #expect(header("clip.mp4", "video/mp4", "TRUE").hasPrefix("attachment; filename=\"clip.mp4\""))
        #expect(header("doc.pdf", "application/pdf", "false").hasPrefix("inline; "))
        #expect(header("song.mp3", "audio/mpeg").hasPrefix("inline; "))
        #expect(header("x.bin", "imagex/y").hasPrefix("attachment; "))
    }

    @Test("header names match in any case, ASCII or not")
    func headerNames() {
        let request = ServerRequest(
            method: "GET", target: "/", headers: ["if-none-match": "\"t\"", "ümlaut": "y", "range": "bytes=0-1"])
        #expect(request.header("If-None-Match") == "\"t\"")
        #expect(request.header("IF-NONE-MATCH") == "\"t\"")
        #expect(request.header("range") == "bytes=0-1")
        #expect(request.header("Ümlaut") == "y")
        #expect(request.header("If-Range") == nil)
        #expect("Accept-Encoding".quickLowercased == "accept-encoding")
    }

    @Test("secrets compare equal only when every byte and the length match")
    func secrets() {
        #expect(constantTimeEqual("abc", "abc"))
        #expect(constantTimeEqual("", ""))
        #expect(!constantTimeEqual("abc", "abd"))
        #expect(!constantTimeEqual("abc", "abcd"))
        #expect(!constantTimeEqual("abcd", "abc"))
        #expect(!constantTimeEqual("", "a"))
        #expect(constantTimeEqual("tök€n", "tök€n"))
    }
}
