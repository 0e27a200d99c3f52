import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ContractKit
import TeleportMe

/// The README's adoption sample, compiled and run: a client's own URLSession code talks to the
/// mock in-process. Keep it in sync with README.md ("Use it from a client project").
final class ReadmeSampleContractsTests: XCTestCase {
    func testReadmeSample() async throws {
        // --- README sample begins
        let backend = try TeleportMeApp.makeBackend()            // Contracts/teleportme + its functions
        let session = backend.makeURLSession()                   // every request answered in-process

        var request = URLRequest(url: backend.baseURL.appendingPathComponent("rest/v1/cities"))
        request.url = URL(string: request.url!.absoluteString + "?select=id,name&continent=eq.Oceania&order=name")
        request.setValue(backend.anonKey, forHTTPHeaderField: "apikey")
        let (data, response) = try await session.data(for: request)
        XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 200)
        let cities = try JSONDecoder().decode([[String: String]].self, from: data)
        XCTAssertEqual(cities.map { $0["name"] }, ["Brisbane", "Melbourne", "Perth", "Sydney"])
        // --- README sample ends
    }
}
