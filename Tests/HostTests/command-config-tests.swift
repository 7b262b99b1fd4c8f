import Foundation
import HogwartsTestSupport
import Testing

@Suite("hogwarts config", .waitsOnProcesses, .commandLineShape)
struct ConfigCommandTests {
    /// `config --json` as a table of name to entry.
    static func entries(_ result: HogwartsProcess.Result) throws -> [String: [String: Any]] {
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]], "\(result.stdout)")
        return Dictionary(uniqueKeysWithValues: rows.compactMap { row in (row["name"] as? String).map { ($0, row) } })
    }

    @Test("each value says where it came from: option, environment or default; no database is opened or created")
    func sources() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        let result = try hogwarts.run(["config", "--json", "--lang", "en"], environment: ["HOGWARTS_PORT": "9090", "HOGWARTS_DATABASE_LOCK_TIMEOUT": "0"])
        #expect(result.status == 0, "\(result.stderr)")
        PlatformJSON.expect(result.stdout, "config --json")
        let entries = try Self.entries(result)
        #expect(entries["database"]?["value"] as? String == hogwarts.databasePath.replacingOccurrences(of: #"://([^:/@]*):[^@]*@"#, with: "://$1:***@", options: .regularExpression))
        #expect(entries["database"]?["source"] as? String == "ENVIRONMENT")
        #expect(entries["database"]?["variable"] as? String == "HOGWARTS_DATABASE")
        #expect(entries["language"]?["value"] as? String == "en" && entries["language"]?["source"] as? String == "FLAG")
        #expect(entries["serve.port"]?["value"] as? String == "9090" && entries["serve.port"]?["source"] as? String == "ENVIRONMENT")
        #expect(entries["serve.host"]?["value"] as? String == "127.0.0.1" && entries["serve.host"]?["source"] as? String == "DEFAULT")
        #expect(entries["postgres.lock-timeout"]?["value"] as? String == "0" && entries["postgres.lock-timeout"]?["source"] as? String == "ENVIRONMENT")
        #expect(entries["postgres.statement-timeout"]?["value"] as? String == "120" && entries["postgres.statement-timeout"]?["source"] as? String == "DEFAULT")
        #expect(entries["config-dir"]?["value"] as? String == hogwarts.directory.appending(path: "config").path)
        for name in ["log-level", "school", "serve.threads", "serve.trusted-proxies", "serve.console-secure", "postgres.connections",
                     "postgres.connect-timeout", "postgres.pool-wait", "postgres.idle-timeout"] {
            #expect(entries[name] != nil, "config lists \(name)")
        }
        if !TestDatabase.isPostgres {
            #expect(!FileManager.default.fileExists(atPath: hogwarts.databasePath), "config opened no database")
        }

        let flagged = try hogwarts.run(["config", "--database", "other.sqlite", "--log-level", "warning", "--json"])
        let flaggedEntries = try Self.entries(flagged)
        #expect(flaggedEntries["database"]?["value"] as? String == "other.sqlite" && flaggedEntries["database"]?["source"] as? String == "FLAG")
        #expect(flaggedEntries["log-level"]?["source"] as? String == "FLAG", "an option given with its default value is still the option's")
        #expect(flaggedEntries["language"]?["value"] as? String == "ar" && flaggedEntries["language"]?["source"] as? String == "DEFAULT")
    }

    @Test("a password in a postgres:// URL is masked, in the user part and in the query")
    func secretsMasked() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        let url = "postgres://hogwarts:s3cr/et@db.internal:5432/school?sslmode=require&sslpassword=k3y"
        for arguments in [["config", "--lang", "en"], ["config", "--json"]] {
            let result = try hogwarts.run(arguments, environment: ["HOGWARTS_DATABASE": url])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(!result.stdout.contains("s3cr") && !result.stdout.contains("et@") && !result.stdout.contains("k3y"), "\(result.stdout)")
            #expect(result.stdout.contains("postgres://hogwarts:***@db.internal:5432/school?sslmode=require&sslpassword=***"), "\(result.stdout)")
        }
    }

    @Test("the table is in the user's language, and a variable that is ignored is named on stderr")
    func tableAndIgnoredValues() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        let arabic = try hogwarts.run(["config"], environment: ["HOGWARTS_DATABASE_POOL_WAIT": "soon"])
        #expect(arabic.status == 0, "\(arabic.stderr)")
        #expect(arabic.stdout.contains("المصدر") && arabic.stdout.contains("متغير البيئة HOGWARTS_DATABASE"), "\(arabic.stdout)")
        #expect(arabic.stderr.contains("HOGWARTS_DATABASE_POOL_WAIT") && arabic.stderr.contains("soon"))

        let english = try hogwarts.run(["config", "--lang", "en"], environment: ["HOGWARTS_DATABASE_POOL_WAIT": "soon", "HOGWARTS_LANG": "fr"])
        let poolWait = try #require(english.stdout.split(separator: "\n").first { $0.hasPrefix("postgres.pool-wait ") })
        #expect(poolWait.contains(" 5 ") && poolWait.hasSuffix("default"), "the default is what runs: \(poolWait)")
        #expect(english.stderr.contains("HOGWARTS_DATABASE_POOL_WAIT: «soon» is not a whole number of seconds"), "\(english.stderr)")
        #expect(!english.stderr.contains("HOGWARTS_LANG"), "--lang wins, so HOGWARTS_LANG is not in use")
    }

    @Test("a value serve would refuse to start with: the table still prints, the reason follows, exit 78")
    func refusedValues() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        let result = try hogwarts.run(["config", "--lang", "en"], environment: ["HOGWARTS_TRUSTED_PROXIES": "10.0.0.0/8, proxy.internal", "HOGWARTS_PORT": "eighty"])
        #expect(result.status == 78)
        #expect(result.stdout.contains("serve.trusted-proxies"))
        #expect(result.stderr.contains("«proxy.internal»"), "\(result.stderr)")
        #expect(result.stderr.contains("HOGWARTS_PORT: "), "\(result.stderr)")
        #expect(result.stderr.contains("serve would refuse to start with HOGWARTS_PORT, HOGWARTS_TRUSTED_PROXIES"), "\(result.stderr)")
    }
}
