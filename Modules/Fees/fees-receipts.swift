import Core

/// Gap-free receipt numbers per school and calendar year. The number is taken inside the
/// payment's transaction from a counter row the UPDATE locks (on PostgreSQL, a second payment
/// waits on that row until the first commits or rolls back), so a rolled-back payment gives its
/// number back and two payments never share one.
enum FeesReceipts {
    static func next(year: Int, _ context: ActionContext) throws -> Int {
        try context.database.execute("""
            INSERT INTO fees_receipt_counters (school_id, receipt_year, last_number) VALUES (:school_id, :year, 0)
            ON CONFLICT (school_id, receipt_year) DO NOTHING
            """, ["year": SQLValue(year)])
        try context.database.execute("UPDATE fees_receipt_counters SET last_number = last_number + 1 WHERE school_id = :school_id AND receipt_year = :year",
                                     ["year": SQLValue(year)])
        let number: Int? = try context.database.fetchValue("SELECT last_number FROM fees_receipt_counters WHERE school_id = :school_id AND receipt_year = :year",
                                                            ["year": SQLValue(year)])
        return number ?? 1
    }

    static func year(of day: CivilDate) -> Int { FeesSchoolYear.parts(day).0 }
}
