// Requests sent ahead of need: a caller that knows which request comes next, before it may send it (a
// one-shot's query, while the channel's catalog is still being read and the statement checked against
// it), sends it now with `sendAhead`; the next `fetch` of the same request takes its answer instead of
// sending it again. The answer is read as `fetch` reads one (parsed, links redacted, decoded) on a task of
// its own, so reading it overlaps whatever the caller does meanwhile.
//
// Only a success is taken. An answer ahead that failed in any way (refused, unreachable, too large,
// malformed, cancelled) is dropped and the request is sent again, so every failure and its message are
// those of a request sent in its turn. An answer nobody asks for is dropped with the client.

import DeliveryKit
import OCEQCore

/// The answers sent for ahead of need by a client and its copies.
final class AnswersAhead: Sendable {
    /// One request sent ahead: what identifies it, and the task reading its answer.
    struct Entry: Sendable {
        let method: String
        let url: String
        let headers: [HTTPHeader]
        let body: [UInt8]?
        let skippedMembers: [String]
        /// How the answer is read.
        let form: Form
        /// The answer read (`R.Response` of the request sent, or a `DeferredPage`).
        let answer: Task<Result<any Sendable, DeliveryError>, Never>
    }

    /// How an answer sent ahead is read: decoded whole (`fetch`), or as a page whose items are
    /// built one at a time (`fetchDeferred`). A fetch takes only an answer read its way.
    enum Form: Sendable, Equatable {
        case decoded
        case deferred
    }

    private let entries = Locked<[Entry]>([])

    /// Keeps `entry` until a fetch of its request takes it.
    func add(_ entry: Entry) {
        entries.withLock { $0.append(entry) }
    }

    /// The answer sent ahead for `prepared` read without `skippedMembers`, removed so that it is used once.
    func take(
        _ prepared: PreparedRequest, skippedMembers: [String], form: Form
    ) -> Task<Result<any Sendable, DeliveryError>, Never>? {
        entries.withLock { entries in
            guard
                let index = entries.firstIndex(where: {
                    $0.url == prepared.url && $0.method == prepared.method && $0.skippedMembers == skippedMembers
                        && $0.form == form && $0.headers == prepared.headers && $0.body == prepared.body
                })
            else { return nil }
            return entries.remove(at: index).answer
        }
    }
}

extension DeliveryClient {
    /// Sends `request` now, reading its answer on a task of its own; the next `fetch` of the same
    /// request (by this client or a copy) takes that answer instead of sending the request again. A
    /// failed answer is not taken: that fetch sends the request again and fails, or not, on its own.
    public func sendAhead<R: DeliveryRequest>(_ request: R) {
        guard let prepared = try? prepare(request) else { return }
        let client = self
        sendAhead(prepared, form: .decoded) { () async throws(DeliveryError) -> any Sendable in
            try client.decode(request, try await client.sendJSON(prepared), prepared)
        }
    }

    /// Sends `prepared` now, `read` reading its answer on a task of its own, kept for the next fetch
    /// of the same request that reads it in `form`.
    func sendAhead(
        _ prepared: PreparedRequest, form: AnswersAhead.Form,
        read: @escaping @Sendable () async throws(DeliveryError) -> any Sendable
    ) {
        // Started on the caller's thread, which sends the request before it goes on: a task started
        // on Swift's pool waited for a pool thread to be made or woken first (0.8 ms at a one-shot's
        // start). The task goes on in the pool once it waits for the answer.
        let answer = Task.immediate { () -> Result<any Sendable, DeliveryError> in
            do throws(DeliveryError) {
                return .success(try await read())
            } catch {
                return .failure(error)
            }
        }
        answersAhead.add(
            AnswersAhead.Entry(
                method: prepared.method, url: prepared.url, headers: prepared.headers, body: prepared.body,
                skippedMembers: skippedMembers, form: form, answer: answer))
    }

    /// The answer sent ahead for `prepared`, once it has arrived, if it was a success; nil when none was
    /// sent, or it failed (the caller sends the request itself). Cancelling the caller cancels it.
    nonisolated(nonsending) func answerAhead<R: DeliveryRequest>(
        _ prepared: PreparedRequest, as request: R
    ) async -> R.Response? {
        await answerAhead(prepared, form: .decoded, as: R.Response.self)
    }

    /// The answer sent ahead for `prepared` and read in `form`, as `answerAhead(_:as:)`.
    nonisolated(nonsending) func answerAhead<Answer>(
        _ prepared: PreparedRequest, form: AnswersAhead.Form, as type: Answer.Type
    ) async -> Answer? {
        guard let answer = answersAhead.take(prepared, skippedMembers: skippedMembers, form: form) else { return nil }
        let result = await withTaskCancellationHandler {
            await answer.value
        } onCancel: {
            answer.cancel()
        }
        guard case .success(let response) = result else { return nil }
        return response as? Answer
    }
}
