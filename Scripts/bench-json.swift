// Parse time of the hand-written JSON parser (OCEQCore's `JSON.parse`) beside Foundation's
// `JSONSerialization` and `JSONDecoder`, each producing the same `JSON` value. Compiled and run by
// Scripts/bench-json together with Sources/OCEQCore/JSON/*.swift (no package build needed).

import Foundation

/// `JSON` from what `JSONSerialization` returns: NSNumber's type tells bool (`c`), double (`d`, `f`)
/// and integer apart; an unsigned integer above `Int.max` becomes a double, as `JSON.parse` does.
func json(foundation any: Any) -> JSON {
    switch any {
    case is NSNull: return .null
    case let string as String: return .string(string)
    case let number as NSNumber:
        switch String(cString: number.objCType) {
        case "c": return .bool(number.boolValue)
        case "d", "f": return .double(number.doubleValue)
        case "Q" where number.uint64Value > UInt64(Int.max): return .double(number.doubleValue)
        default: return .int(number.intValue)
        }
    case let array as [Any]: return .array(array.map(json(foundation:)))
    case let object as [String: Any]: return .object(object.mapValues(json(foundation:)))
    default: fatalError("unexpected \(type(of: any))")
    }
}

/// `JSON` through `JSONDecoder`: the only way a `Decodable` enum can tell the kinds apart is to try
/// them in turn.
struct DecodedJSON: Decodable {
    var value: JSON
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            value = .null
        } else if let bool = try? container.decode(Bool.self) {
            value = .bool(bool)
        } else if let int = try? container.decode(Int.self) {
            value = .int(int)
        } else if let double = try? container.decode(Double.self) {
            value = .double(double)
        } else if let string = try? container.decode(String.self) {
            value = .string(string)
        } else if let array = try? container.decode([DecodedJSON].self) {
            value = .array(array.map(\.value))
        } else {
            value = .object(try container.decode([String: DecodedJSON].self).mapValues(\.value))
        }
    }
}

func measure(_ rounds: Int, _ body: () throws -> JSON) rethrows -> Double {
    var best = Double.infinity
    for _ in 0..<5 {
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<rounds { _ = try body() }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / Double(rounds) / 1000
        best = min(best, elapsed)
    }
    return best
}

let arguments = CommandLine.arguments.dropFirst()
print(
    "file                                        bytes  JSON.parse  JSONSerialization  (its own objects)",
    "  JSONDecoder  (µs per parse, best of 5)")
for path in arguments {
    guard let data = FileManager.default.contents(atPath: path) else { continue }
    let bytes = [UInt8](data)
    let rounds = max(20, 4_000_000 / max(bytes.count, 1))
    let hand = try measure(rounds) { try JSON.parse(bytes) }
    let serialization = try measure(rounds) {
        json(foundation: try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]))
    }
    let bare = try measure(rounds) {
        _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        return .null
    }
    let decoder = try measure(rounds) { try JSONDecoder().decode(DecodedJSON.self, from: data).value }
    let name = String(path.split(separator: "/").last ?? "").prefix(40)
    print(
        name.padding(toLength: 40, withPad: " ", startingAt: 0),
        String(bytes.count).leftPadded(8),
        String(
            format: "%10.1f %12.1f (%4.1fx) %10.1f (%4.1fx) %10.1f (%4.1fx)", hand, serialization,
            serialization / hand, bare, bare / hand, decoder, decoder / hand))
}

extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
