import Foundation
import Prometheus

/// What `GET /metrics` reports, in Prometheus' text format: requests by route and status,
/// latency by route, actions run by outcome, refused sign-ins. One registry per server, so
/// tests never share counters.
public final class APIMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    private static let buckets: [Duration] = [
        .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(20),
        .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(5),
    ]

    public init() {}

    func recordRequest(route: String, method: String, status: Int, duration: Duration) {
        registry.makeCounter(name: "hogwarts_http_requests_total", labels: [("route", route), ("method", method), ("status", String(status))],
                             help: "HTTP requests answered, by route and status").increment()
        registry.makeDurationHistogram(name: "hogwarts_http_request_duration_seconds", labels: [("route", route), ("method", method)],
                                       buckets: Self.buckets, help: "Time to answer an HTTP request").record(duration)
    }

    func recordAction(_ action: String, succeeded: Bool) {
        registry.makeCounter(name: "hogwarts_actions_total", labels: [("action", action), ("outcome", succeeded ? "succeeded" : "failed")],
                             help: "Actions run through the API, by outcome").increment()
    }

    /// A refused sign-in (wrong password, unknown account, locked or suspended).
    public func recordSignInFailure() {
        registry.makeCounter(name: "hogwarts_sign_in_failures_total", help: "Refused sign-ins through the API").increment()
    }

    var text: String { registry.emitToString() }
}
