@testable import Core
import Testing

@Suite("Request log")
struct RequestLogTests {
    @Test("a request's duration is logged in milliseconds with two decimals, rounded")
    func durationText() {
        #expect(APIObservationMiddleware.milliseconds(.microseconds(12_345)) == "12.35")
        #expect(APIObservationMiddleware.milliseconds(.microseconds(12_344)) == "12.34")
        #expect(APIObservationMiddleware.milliseconds(.microseconds(50)) == "0.05")
        #expect(APIObservationMiddleware.milliseconds(.microseconds(4)) == "0.00")
        #expect(APIObservationMiddleware.milliseconds(.milliseconds(3) + .microseconds(7)) == "3.01")
        #expect(APIObservationMiddleware.milliseconds(.seconds(2) + .microseconds(999_996)) == "3000.00")
        #expect(APIObservationMiddleware.milliseconds(.zero) == "0.00")
    }
}
