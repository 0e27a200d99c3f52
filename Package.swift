// swift-tools-version:6.0
// SupaContracts: executable contracts for five Supabase-backed apps and a mock backend that honours them.
// No third-party package dependencies: Foundation, Dispatch, XCTest and Swift Testing only.
import PackageDescription

let apps = ["TeleportMe", "NaarsCars", "CivicForge", "Aura", "Shvil"]

let package = Package(
    name: "SupaContracts",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "ContractModel", targets: ["ContractModel"]),
        .library(name: "MockSupabase", targets: ["MockSupabase"]),
        .library(name: "ContractKit", targets: ["ContractKit"]),
        .library(name: "SupaContracts", targets: ["ContractKit", "MockSupabase", "MockBinding"] + apps),
        .executable(name: "contracts", targets: ["contracts"]),
        .executable(name: "contracts-bench", targets: ["contracts-bench"]),
        .executable(name: "cache-fuzz", targets: ["CacheFuzz"]),
        .executable(name: "clientrules-tool", targets: ["ClientRulesTool"])
    ],
    targets: [
        // epoll and malloc_trim for the loopback server on Linux (a header only; empty elsewhere).
        .target(name: "CEventPoll"),
        // The contract model: schema, policies and their expression language, fixtures, auth
        // settings, source traces, and the JSON and SQL values they hold. No service code: the
        // mock and the rule runners both read it.
        .target(name: "ContractModel"),
        .target(name: "MockSupabase", dependencies: ["ContractModel", "CEventPoll"]),
        // The rule runners: expand contracts into cases and judge what a `BackendUnderTest` answers.
        .target(name: "ContractKit", dependencies: ["ContractModel"]),
        // The one target that knows both: the mock as a backend under test, apps as mock backends.
        .target(name: "MockBinding", dependencies: ["ContractKit", "MockSupabase"])
    ] + apps.map { .target(name: $0, dependencies: ["MockBinding"]) } + [
        // The list of apps (`allApps`) every command, tool and gate test iterates.
        .target(name: "AppRegistry", dependencies: ["ContractKit"] + apps.map { .target(name: $0) }),
        .executableTarget(name: "contracts", dependencies: ["AppRegistry", "MockBinding"] + apps.map { .target(name: $0) }),
        .executableTarget(name: "contracts-bench", dependencies: ["AppRegistry", "MockBinding"] + apps.map { .target(name: $0) }),
        .executableTarget(name: "fuzz-http", dependencies: ["MockSupabase"], path: "Sources/fuzz-http"),
        // libFuzzer targets of the query string, JSON bodies and JWTs (scripts/fuzz-all); replayers in ordinary builds.
        .executableTarget(name: "fuzz-query", dependencies: ["MockSupabase"], path: "Sources/fuzz-query"),
        .executableTarget(name: "fuzz-json", dependencies: ["MockSupabase"], path: "Sources/fuzz-json"),
        .executableTarget(name: "fuzz-jwt", dependencies: ["MockSupabase"], path: "Sources/fuzz-jwt"),
        // libFuzzer target of the WebSocket frame parser and Realtime's Phoenix messages.
        .executableTarget(name: "fuzz-ws", dependencies: ["MockSupabase"], path: "Sources/fuzz-ws"),
        // libFuzzer target of the cache (scripts/fuzz-cache); a replayer in ordinary builds.
        .executableTarget(name: "CacheFuzz", dependencies: ["ContractKit"]),
        // Crash-consistency writer and cache benchmark of the client rules.
        .executableTarget(name: "ClientRulesTool", dependencies: ["AppRegistry", "ContractKit"]),
        .testTarget(name: "ContractsTests", dependencies: ["AppRegistry", "MockBinding"] + apps.map { .target(name: $0) }),
        // The concurrency suite drives the apps' server-side functions too (generate-report, NaarsCars' RPCs and edge functions).
        .testTarget(name: "MockSupabaseTests", dependencies: ["MockBinding", "TeleportMe", "NaarsCars"]),
        .testTarget(name: "ContractKitTests", dependencies: ["MockBinding"])
    ]
)
