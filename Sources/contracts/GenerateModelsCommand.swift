import AppRegistry
import Foundation
import MockBinding

let generateModelsSpec = CommandSpec(
    name: "generate-models",
    summary: """
        Writes each app's table models (Sources/<App>/Generated/TableModels.swift) from Contracts/<app>/schema.json
        and the app's naming overlay Contracts/<app>/models.json (format: Contracts/FORMAT.md). With --check, writes
        nothing and exits 1 when a file is missing or differs from what the command would write.
        """,
    options: [
        .flag("check", "compare instead of writing; exit 1 when a generated file is stale"),
        .value("app", "NAME", repeatable: true, "only this app (one of: \(appList); case-insensitive)")
    ],
    environment: commonEnvironment,
    exitStatus: [
        (0, "the files were written (or, with --check, are fresh)"), (1, "a file is stale (--check) or the schema or overlay cannot be read"),
        (2, "usage error")
    ])

/// `contracts generate-models [--check] [--app NAME]`.
func runGenerateModels(_ args: [String]) -> Int32 {
    var status: Int32 = 0
    guard let opts = parse(generateModelsSpec, args, status: &status) else { return status }
    guard let apps = resolveApps(opts.values["app"], command: generateModelsSpec) else { return 2 }
    let root = ContractsLocator.root
    let check = opts.flags.contains("check")
    var stale = 0
    for app in apps {
        do {
            let out = try ModelGenerator.generate(app, root: root)
            let url = root.appendingPathComponent(out.path)
            let onDisk = try? String(contentsOf: url, encoding: .utf8)
            if check {
                if let problem = ModelGenerator.staleness(out, onDisk: onDisk) { print("STALE \(problem)"); stale += 1 } else { print("fresh \(out.path)") }
            } else if onDisk == out.text {
                print("unchanged \(out.path)")
            } else {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(out.text.utf8).write(to: url, options: .atomic)
                print("wrote \(out.path)")
            }
        } catch {
            print("FAIL \(app.name): \(error)")
            return 1
        }
    }
    return stale == 0 ? 0 : 1
}
