// When to send an idempotent request again: after a connection failure or a 408/429/500/502/503/
// 504, with exponential backoff and full jitter (a uniform wait between 0 and the capped
// exponential step), or exactly the server's `Retry-After` when it gives one. Bounded by a number
// of attempts and by the total time since the first attempt.
import OCEQCore

/// The retry rules of a client.
public struct RetryPolicy: Sendable {
    /// Attempts in all, the first included (1 disables retries).
    public var maxAttempts: Int
    /// The backoff cap of the first retry, in seconds; doubled for each further one.
    public var initialBackoff: Double
    /// The largest backoff cap, in seconds.
    public var maxBackoff: Double
    /// No retry starts if it would begin later than this many seconds after the first attempt.
    public var maxTotalTime: Double
    /// Statuses that are retried.
    public var retryableStatuses: Set<Int>
    /// A uniform random number in 0..<1 (injectable so tests are deterministic).
    public var random: @Sendable () -> Double

    /// A policy; the defaults are `standard`.
    public init(
        maxAttempts: Int = 4, initialBackoff: Double = 0.5, maxBackoff: Double = 20, maxTotalTime: Double = 60,
        retryableStatuses: Set<Int> = [408, 429, 500, 502, 503, 504],
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.initialBackoff = max(0, initialBackoff)
        self.maxBackoff = max(0, maxBackoff)
        self.maxTotalTime = max(0, maxTotalTime)
        self.retryableStatuses = retryableStatuses
        self.random = random
    }

    /// The default: 4 attempts, backoff caps 0.5 s, 1 s, 2 s ... up to 20 s, within 60 s.
    public static let standard = RetryPolicy()

    /// No retries.
    public static let none = RetryPolicy(maxAttempts: 1)

    /// The backoff cap before retry number `retry` (1 for the first retry).
    public func backoffCap(retry: Int) -> Double {
        var cap = initialBackoff
        var step = 1
        while step < retry && cap < maxBackoff {
            cap *= 2
            step += 1
        }
        return min(cap, maxBackoff)
    }

    /// The wait before another attempt after `attempt` attempts failed, or nil to give up.
    ///
    /// - Parameters:
    ///   - attempt: attempts made so far (1 after the first).
    ///   - retryAfter: seconds the server asked for, if any; used as given instead of the backoff.
    ///   - elapsed: seconds since the first attempt started.
    public func delay(afterAttempt attempt: Int, retryAfter: Double?, elapsed: Double) -> Double? {
        guard attempt < maxAttempts else { return nil }
        let wait = retryAfter.map { max(0, $0) } ?? random() * backoffCap(retry: attempt)
        guard elapsed + wait <= maxTotalTime else { return nil }
        return wait
    }
}
