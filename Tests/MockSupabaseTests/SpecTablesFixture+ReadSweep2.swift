@testable import MockSupabase

extension SpecTablesFixture {
    /// data.sql's rows for the tables EmbedDisambiguationSpec.hs and SpreadQueriesSpec.hs reach
    /// through composite keys (`schedules` → `activities` → `unit_workdays`), through junctions
    /// of the unexposed `private` schema (`label_screen`, `personnages`, `junction`, `rollen`) and
    /// a view over a self-referencing private table (`job`). `end_1`, `end_2`, `schauspieler`,
    /// `filme`, `series`, `adaptation_notifications`, `public.ta` and `public.tb` stay empty, as
    /// data.sql leaves them.
    func seedReadSweep2Tables(_ db: Database) throws {
        func rows(_ cols: [String], _ values: [[JSONValue]]) -> [JSONValue] {
            values.map { v in JSONValue.object(Dictionary(uniqueKeysWithValues: zip(cols, v))) }
        }
        try db.seed(
            "schedules",
            rows: rows(
                ["id", "name", "start_at", "end_at"],
                [
                    [1, "morning", "06:00:00", "11:59:00"], [2, "afternoon", "12:00:00", "17:59:00"], [3, "night", "18:00:00", "23:59:00"],
                    [4, "early morning", "00:00:00", "05:59:00"]
                ]))
        try db.seed("activities", rows: rows(["id", "schedule_id", "car_id", "camera_id"], [[1, 1, "CAR-349", nil], [2, 3, nil, "CAM-123"]]))
        try db.seed(
            "unit_workdays",
            rows: rows(
                ["unit_id", "day", "fst_shift_activity_id", "fst_shift_schedule_id", "snd_shift_activity_id", "snd_shift_schedule_id"],
                [[1, "2019-12-02", 1, 1, 2, 3]]))
        try db.seed("private.screens", rows: rows(["id", "name"], [[1, "banana"], [2, "helicopter"], [3, "formula 1 banana"]]))
        try db.seed("private.labels", rows: rows(["id", "name"], [[1, "vehicles"], [2, "fruit"]]))
        try db.seed("private.label_screen", rows: rows(["label_id", "screen_id"], [[1, 2], [1, 3], [2, 1], [2, 3]]))
        try db.seed("private.actors", rows: rows(["id", "name"], [[1, "john"], [2, "mary"]]))
        try db.seed("private.films", rows: rows(["id", "title"], [[12, "douze commandements"], [2001, "odyssée de l'espace"]]))
        try db.seed("private.personnages", rows: rows(["film_id", "role_id", "character"], [[12, 1, "méchant"], [2001, 2, "astronaute"]]))
        try db.seed("private.internal_job", rows: rows(["id", "parent_id"], [[1, nil], [2, 1]]))
    }
}
