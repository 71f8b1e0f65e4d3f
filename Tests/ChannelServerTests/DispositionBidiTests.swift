// `oceq serve` offers a file's name in `Content-Disposition`; a name with U+202E or another
// bidirectional control must not reach the browser, which would show `gpj.exe` as `exe.jpg`.

import OCEQCore
import Testing

@testable import ChannelServer

@Suite("Content-Disposition drops bidi controls")
struct DispositionBidiTests {
    @Test("no bidi control in either the ASCII fallback or the encoded name")
    func stripped() {
        let hostile = "invoice\u{202E}gpj.exe\u{2066}\u{200F}\u{061C}"
        let header = DeliveryRouter.disposition(fileName: hostile, mimeType: "application/octet-stream", download: nil)
        #expect(header == "attachment; filename=\"invoicegpj.exe\"; filename*=UTF-8''invoicegpj.exe")
        #expect(!header.contains("%E2%80%AE"))
        // Right-to-left letters are not controls and stay.
        let arabic = DeliveryRouter.disposition(fileName: "ملف.pdf", mimeType: "application/pdf", download: nil)
        #expect(arabic.contains(URLEncoding.component("ملف.pdf")))
    }
}
