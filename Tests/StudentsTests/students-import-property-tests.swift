import Core
import Foundation
import HogwartsTestSupport
import PropertyBased
import Students
import Testing

/// Generated CSV files, from plausible to hostile, through the whole import path (bytes to
/// text, then the action): never a crash, every refusal with a localized reason at a row and
/// column, and nothing written unless the import succeeds.
@Suite("Students import on generated CSV")
struct StudentsImportPropertyTests {
    /// Pieces a file is built from: a header, good rows, and what breaks files in practice.
    static let pieces: [[UInt8]] = [
        Array("gr_number,given_name,surname,name_language,date_of_birth,gender,status,enrolled_on,class\n".utf8),
        Array("gr_number,given_name,surname,date_of_birth,gender\n".utf8),
        Array("ROW,سارة,علي,ar,2014-03-02,FEMALE,ACTIVE,2026-09-01,\n".utf8),
        Array("ROW,Emma,Hall,en,2013-07-30,FEMALE,,,8A\n".utf8),
        Array("ROW,\"Hall, Jr\",\"O\"\"Brien\",en,2013-07-30,MALE,,,\n".utf8),
        Array("\"".utf8), Array("\"\"".utf8), Array(",".utf8), Array("\n".utf8), Array("\r\n".utf8), Array("\r".utf8),
        [0xEF, 0xBB, 0xBF], [0xFF, 0xFE], [0xFE, 0xFF], [0x00, 0x00, 0xFE, 0xFF], [0x00], [0x1B], [0x07], [0xC3, 0x28], [0xFF],
        Array("99999999999999999999999".utf8), Array("-461168601842738792".utf8), Array("2014-02-30".utf8), Array("0001-01-01".utf8),
        Array("2199-12-31".utf8), Array("=HYPERLINK(\"x\")".utf8), Array(",extra".utf8), Array("gr_number".utf8), Array("surname".utf8),
        Array("nan".utf8), Array("1e400".utf8), Array("'=".utf8), Array("MALE".utf8), Array("%_".utf8), Array("أحمد".utf8),
    ]

    static let files = zip(
        Gen.int(in: 0...(pieces.count - 1)).array(of: 0...24),
        Gen<UInt8>.value(in: 0...255).array(of: 0...6),
        Gen.int(in: 0...24)
    ).map { generated in
        let (choices, noise, at) = generated
        var bytes: [UInt8] = []
        for (index, choice) in choices.enumerated() {
            if index == at { bytes += noise }
            bytes += pieces[choice]
        }
        return bytes
    }

    /// Each `ROW` placeholder becomes a GR number of its own, so some files import and later
    /// ones meet their numbers as taken.
    static func numbered(_ bytes: [UInt8], prefix: String) -> Data {
        var data = Data()
        var serial = 0
        var index = 0
        while index < bytes.count {
            if bytes[index...].starts(with: Array("ROW".utf8)) {
                serial += 1
                data += Data("\(prefix)\(serial)".utf8)
                index += 3
            } else {
                data.append(bytes[index])
                index += 1
            }
        }
        return data
    }

    @Test("no crash, every refusal at a row and column with a reason, nothing written on refusal")
    func generatedFiles() async throws {
        let roster = try RosterFixture()
        var iteration = 0
        await propertyCheck(count: 300, input: Self.files) { bytes in
            iteration += 1
            let data = Self.numbered(bytes, prefix: "P\(iteration)-")
            let before = (try? roster.run(ListStudents.self, .init(includeArchived: true)).total) ?? -1
            let text: String
            do {
                text = try StudentsCSVText.decode(data)
            } catch let error as InputError {
                #expect(error.messageKey == "students.error.csv-encoding")
                return
            } catch {
                Issue.record("decode threw \(error)")
                return
            }
            do {
                let report = try roster.run(ImportStudents.self, .init(csv: text, dryRun: false))
                #expect(report.problems.isEmpty)
                let after = try roster.run(ListStudents.self, .init(includeArchived: true)).total
                #expect(after == before + report.imported)
            } catch StudentsError.invalidImport(let problems) {
                #expect(!problems.isEmpty)
                for problem in problems {
                    #expect(problem.row >= 1 && !problem.column.isEmpty, "\(problem)")
                    #expect(!problem.reason.isEmpty && !problem.reason.hasPrefix("students.") && !problem.reason.hasPrefix("kernel."), "\(problem)")
                }
                let dryRun = try? roster.run(ImportStudents.self, .init(csv: text, dryRun: true))
                #expect(dryRun?.problems == problems, "a dry run reports the same problems")
                #expect((try? roster.run(ListStudents.self, .init(includeArchived: true)).total) == before, "nothing written")
            } catch {
                Issue.record("import threw \(error) for \(text.debugDescription)")
            }
        }
    }
}
