// Scrolled searches, as gatsby-source-oce pages: the first `GET /items?scroll=true&limit=N...`
// opens a cursor and the answer carries its `scrollId`; the client then repeats the same request
// with `&scrollId=<that id>` (always the first one) and each call returns the next page, until a
// page with `count: 0` ends the loop. So the cursor is server state: an id maps to the offset of
// the next page, reserved atomically so concurrent calls never get the same page. At most
// `capacity` cursors are kept; the oldest is dropped first, and a finished one is dropped at once.
import OCEQCore

/// The open scroll cursors of one server.
final class ScrollCursors: Sendable {
    /// Most cursors kept at once.
    static let capacity = 256

    private struct State {
        var next: [String: Int] = [:]
        var order: [String] = []
    }

    private let state = Locked(State())

    /// Opens a cursor whose first page starts at `offset` and whose next page starts at
    /// `offset + limit`; returns its id.
    func open(offset: Int, limit: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        let id = (0..<16).map { _ in hex(UInt8.random(in: 0...255, using: &generator)) }.joined()
        state.withLock { state in
            state.next[id] = offset.addingReportingOverflow(limit).overflow ? Int.max : offset + limit
            state.order.append(id)
            while state.order.count > ScrollCursors.capacity {
                state.next[state.order.removeFirst()] = nil
            }
        }
        return id
    }

    /// The offset of cursor `id`'s next page, advanced past `limit` items; nil for an unknown id.
    func advance(_ id: String, limit: Int) -> Int? {
        state.withLock { state in
            guard let offset = state.next[id] else { return nil }
            state.next[id] = offset.addingReportingOverflow(limit).overflow ? Int.max : offset + limit
            return offset
        }
    }

    /// Drops cursor `id` (its last page was empty).
    func close(_ id: String) {
        state.withLock { state in
            state.next[id] = nil
            state.order.removeAll { $0 == id }
        }
    }

    private func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }
}
