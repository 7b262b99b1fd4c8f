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
        registry.makeCounter(descriptor: Self.name("http_requests", "total", "HTTP requests answered, by route and status"),
                             labels: [("route", route), ("method", method), ("status", String(status))]).increment()
        registry.makeDurationHistogram(descriptor: Self.name("http_request_duration", "seconds", "Time to answer an HTTP request"),
                                       labels: [("route", route), ("method", method)], buckets: Self.buckets).record(duration)
    }

    package func recordAction(_ action: String, succeeded: Bool) {
        registry.makeCounter(descriptor: Self.name("actions", "total", "Actions run through the API, by outcome"),
                             labels: [("action", action), ("outcome", succeeded ? "succeeded" : "failed")]).increment()
    }

    /// A refused sign-in (wrong password, unknown account, locked or suspended).
    public func recordSignInFailure() {
        registry.makeCounter(descriptor: Self.name("sign_in_failures", "total", "Refused sign-ins through the API")).increment()
    }

    /// `hogwarts_<metric>_<unit>`, with its help line.
    private static func name(_ metric: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "hogwarts", metricName: metric, unitName: unit, helpText: help)
    }

    var text: String { registry.emitToString() }
}
