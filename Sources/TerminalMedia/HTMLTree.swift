// libxml2's HTML parser (recovering from any markup, no network, no messages) and an iterative
// walk over the tree it builds: depth never costs stack, so 100 000 nested elements are as safe
// as ten. Elements whose content is never shown (scripts, styles, ...) are not entered.

import CLibXML2

/// What the walk reports, in document order.
protocol HTMLVisitor {
    /// An element starts; `attribute` reads one of its attributes.
    mutating func enter(_ name: String, attribute: (String) -> String?)
    /// The element that started last ends.
    mutating func leave(_ name: String)
    /// Text, entities decoded, exactly as in the document.
    mutating func text(_ text: String)
}

/// Parsing HTML and walking its elements.
enum HTMLTree {
    /// Elements whose content is dropped whole.
    static let hidden: Set<String> = [
        "script", "style", "head", "title", "template", "noscript", "iframe", "object", "embed", "svg", "math",
        "canvas", "select", "textarea", "button",
    ]

    /// How a walk ended.
    enum Outcome {
        /// The whole document was walked.
        case complete
        /// libxml2 stopped at an element nested deeper than its limit; what came before was walked.
        case tooDeep
        /// libxml2 made no document.
        case unreadable
    }

    /// Parses `bytes` and walks the document with `visitor`.
    static func walk(_ bytes: [UInt8], with visitor: inout some HTMLVisitor) -> Outcome {
        guard !bytes.isEmpty else { return .complete }
        var halted: Int32 = 0
        let document: OpaquePointer? = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                oceq_html_read($0, Int32(buffer.count), &halted)
            }
        }
        guard let document else { return .unreadable }
        defer { oceq_html_free(document) }
        var node = oceq_html_first_node(document)
        var depth = 0
        while let current = node {
            let kind = oceq_xml_kind(current)
            var descended = false
            if kind == 1 {
                let name = oceq_xml_name(current).map { String(cString: $0) } ?? ""
                if !hidden.contains(name) {
                    visitor.enter(name) { attribute in
                        guard let value = oceq_html_attribute(current, attribute) else { return nil }
                        defer { oceq_xml_free(value) }
                        return String(cString: value)
                    }
                    if let child = oceq_xml_children(current) {
                        node = child
                        depth += 1
                        descended = true
                    } else {
                        visitor.leave(name)
                    }
                }
            } else if kind == 2, let content = oceq_xml_content(current) {
                visitor.text(String(cString: content))
            }
            if descended { continue }
            // Next sibling, or climb until an ancestor has one, closing each ancestor on the way.
            var at: OpaquePointer? = current
            node = nil
            while let here = at {
                if let next = oceq_xml_next(here) {
                    node = next
                    break
                }
                guard depth > 0, let parent = oceq_xml_parent(here) else { break }
                depth -= 1
                visitor.leave(oceq_xml_name(parent).map { String(cString: $0) } ?? "")
                at = parent
            }
        }
        return halted == 0 ? .complete : .tooDeep
    }
}
