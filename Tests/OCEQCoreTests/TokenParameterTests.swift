import OCEQCore
import Testing

@Suite("channelToken parameters redacted in text")
struct TokenParameterTests {
    @Test("every channelToken value becomes REDACTED, in any case, up to the parameter's end")
    func redacts() {
        #expect(
            Redactor.redactTokenParameters("https://h/items?channelToken=abc123&limit=5")
                == "https://h/items?channelToken=REDACTED&limit=5")
        #expect(
            Redactor.redactTokenParameters("a?CHANNELTOKEN=x1#f and b?channeltoken=y2")
                == "a?CHANNELTOKEN=REDACTED#f and b?channeltoken=REDACTED")
        #expect(Redactor.redactTokenParameters("u?channelToken=secret") == "u?channelToken=REDACTED")
        #expect(Redactor.redactTokenParameters("\"channelToken=s\", x") == "\"channelToken=REDACTED\", x")
        #expect(Redactor.redactTokenParameters("é?channelToken=ü9;rest") == "é?channelToken=REDACTED;rest")
    }

    @Test("text without a value to hide is returned as it is")
    func unchanged() {
        for text in [
            "", "channelToken", "no parameter here", "u?channelToken=&x=1", "u?channelToken=REDACTED&x=1",
            "u?channelTokens=1", "channelToken=",
        ] {
            #expect(Redactor.redactTokenParameters(text) == text, "\(text)")
        }
    }
}
