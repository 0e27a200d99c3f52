import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking                                  // URLSession and URLRequest on Linux
#endif
import ContractKit                                           // the contract machinery and the client-rule suites
import TeleportMe                                            // TeleportMe's contracts, edge functions and mock backend

func fetchOceaniaCities() async throws -> (Data, URLResponse) {
    let backend = try TeleportMeApp.makeBackend()            // Contracts/teleportme + its functions
    let session = backend.makeURLSession()                   // every request answered in-process

    var request = URLRequest(url: backend.baseURL.appendingPathComponent("rest/v1/cities"))
    request.url = URL(string: request.url!.absoluteString + "?select=id,name&continent=eq.Oceania&order=name")
    request.setValue(backend.anonKey, forHTTPHeaderField: "apikey")
    return try await session.data(for: request)
}
