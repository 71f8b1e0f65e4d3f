import DeliveryKit
import FoundationEssentials
import OCEQCore

/// Time for the retry logic: a monotonic clock, the wall clock (for `Retry-After` dates) and
/// sleeping. Tests inject one that records sleeps instead of waiting.
public protocol RetryClock: Sendable {
    /// Monotonic seconds from an arbitrary origin.
    func now() -> Double
    /// The current wall-clock time.
    func wallClock() -> Date
    /// Waits `seconds`; throws when the task is cancelled.
    func sleep(seconds: Double) async throws
}

/// The real clock.
public struct SystemRetryClock: RetryClock {
    private let origin = ContinuousClock.now

    /// A clock whose monotonic origin is now.
    public init() {}

    /// Seconds since this clock was made.
    public func now() -> Double { (ContinuousClock.now - origin).seconds }

    /// `Date()`.
    public func wallClock() -> Date { Date() }

    /// `Task.sleep`, rounded up to the millisecond.
    public func sleep(seconds: Double) async throws {
        guard seconds > 0 else { return }
        try await Task.sleep(for: .milliseconds(Int64((seconds * 1000).rounded(.up))))
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}
