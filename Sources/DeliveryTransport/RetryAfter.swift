// `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP-date. The date is read by libcurl's
// `curl_getdate`, which takes the three forms HTTP recipients must accept (IMF-fixdate, RFC 850 and
// asctime); only what it returns is checked here.

import CCurl
import DeliveryKit
import FoundationEssentials
import OCEQCore

/// Parsing of `Retry-After` and HTTP dates.
public enum RetryAfter {
    /// Seconds to wait from `value` at wall-clock time `now` (0 for a date in the past), or nil
    /// for text that is neither form.
    public static func seconds(_ value: String, now: Date) -> Double? {
        let text = value.trimmedWhitespace
        if !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            return Double(text)
        }
        guard let date = httpDate(text) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }

    /// Parses `Sun, 06 Nov 1994 08:49:37 GMT`, `Sunday, 06-Nov-94 08:49:37 GMT` or
    /// `Sun Nov  6 08:49:37 1994` (and the other forms `curl_getdate` reads); nil otherwise.
    public static func httpDate(_ text: String) -> Date? {
        // -1 is curl_getdate's failure, and also 1969-12-31 23:59:59, which no server sends.
        let seconds = curl_getdate(text, nil)
        guard seconds != -1 else { return nil }
        return Date(timeIntervalSince1970: Double(seconds))
    }
}
