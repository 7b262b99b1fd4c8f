import Auth
import Core
import Fees
import Foundation
import HogwartsTestSupport
import Students
import Testing

@Suite("Fees routes")
struct FeesRouteTests {
    static let itemKeys: Set<String> = ["id", "fee_type", "amount", "paid_amount", "due_date", "payment_date", "payment_method", "status", "late_fee",
                                        "discount", "receipt_number", "remarks"]

    @Test("GET /fees and /fees/summary give a guardian their child's invoices with the contract's keys; another family's child is a 404")
    func mobile() async throws {
        let fixture = try FeesFixture()
        let parent = try fixture.account("parent@databayt.org")
        let child = try #require(try fixture.children(of: parent).first)
        let stranger = try fixture.student(in: "12C")
        let teacher = try fixture.account("teacher@databayt.org")
        try await fixture.harness.api { api in
            let page = try await api.get("/api/mobile/fees?student_id=\(child.id)", as: parent)
            #expect(page.status == 200)
            #expect(page.data.count > 5 && page.data.allSatisfy { Set($0.keys) == Self.itemKeys })
            let summary = try await api.get("/api/mobile/fees/summary/\(child.id)", as: parent)
            #expect(summary.status == 200 && (summary.object["total_records"] as? Int ?? 0) == page.object["total"] as? Int)
            let childRoute = try await api.get("/api/mobile/guardian/children/\(child.id)/fees?status=PENDING", as: parent)
            #expect(childRoute.status == 200 && childRoute.data.allSatisfy { $0["status"] as? String == "PENDING" })
            #expect(try await api.get("/api/mobile/fees/summary/\(stranger.id)", as: parent).status == 404)
            #expect(try await api.get("/api/mobile/fees/summary/00000000-0000-0000-0000-000000000000", as: parent).status == 404)
            #expect(try await api.get("/api/mobile/fees?student_id=\(child.id)", as: teacher).status == 403)
            let unnamed = try await api.get("/api/mobile/fees", as: parent, headers: ["Accept-Language": "en"])
            #expect(unnamed.status == 400 && unnamed.code == "FEES_CHOOSE_CHILD" && !unnamed.text.contains("--"), "\(unnamed.text)")
            #expect(try await api.get("/api/mobile/fees?student_id=\(child.id)").status == 401)
        }
    }

    @Test("the accountant records a payment and a refund over HTTP; bad input is a 400; another school's accountant gets a 404")
    func accountant() async throws {
        let fixture = try FeesFixture()
        let accountant = try fixture.account("accountant@databayt.org")
        let student = try fixture.student(in: "9C")
        let foreign = fixture.harness.user(.accountant, in: fixture.other)
        try await fixture.harness.api { api in
            let paid = try await api.post("/api/v1/fees/payments", as: accountant,
                                          json: ["student_id": student.id, "amount": "75.25", "method": "BANK_TRANSFER", "reference": "TRX 9"])
            #expect(paid.status == 201)
            let entry = try #require(paid.object["entry"] as? [String: Any])
            let receipt = try #require(entry["receipt_number"] as? String)
            #expect((entry["amount"] as? Double) == 75.25)
            let refunded = try await api.post("/api/v1/fees/refunds", as: accountant, json: ["receipt_number": receipt, "amount": "0.25", "kind": "REFUND"])
            #expect(refunded.status == 201)
            #expect(try await api.post("/api/v1/fees/payments", as: accountant, json: ["student_id": student.id, "amount": 5, "method": "CASH"]).status == 400)
            let tooPrecise = try await api.post("/api/v1/fees/payments", as: accountant, json: ["student_id": student.id, "amount": "5.001", "method": "CASH"])
            #expect(tooPrecise.status == 400 && !tooPrecise.text.contains("--"))
            #expect(try await api.get("/api/v1/fees/students/\(student.id)", as: foreign).status == 404)
            let statement = try await api.get("/api/v1/fees/students/\(student.id)", as: accountant)
            #expect(statement.status == 200 && (statement.object["entries"] as? [Any])?.isEmpty == false)
            #expect(try await api.get("/api/v1/fees/aged", as: accountant).status == 200)
            #expect(try await api.get("/api/v1/fees/collections?from=2026-11-01&to=2026-11-22", as: accountant).status == 200)
            #expect(try await api.get("/api/v1/fees/aged", as: fixture.harness.user(.teacher, in: fixture.school)).status == 403)
        }
    }
}
