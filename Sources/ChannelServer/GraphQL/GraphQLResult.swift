import OCEQCore

/// A response value that keeps the order of the selected fields (JSON objects do not).
indirect enum GraphQLResult: Sendable {
    case value(JSON)
    case list([GraphQLResult])
    case object([(String, GraphQLResult)])

    /// Compact JSON text.
    func write(into out: inout [UInt8]) {
        switch self {
        case .value(let json): out += JSONWriter().bytes(json)
        case .list(let elements):
            out.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                element.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (i, member) in members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONWriter.appendQuoted(member.0, into: &out)
                out.append(UInt8(ascii: ":"))
                member.1.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }
}
