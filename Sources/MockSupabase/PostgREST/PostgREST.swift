import Foundation

extension MockSupabase {
    func handleREST(_ request: HTTPRequest) -> HTTPResponse {
        .json(501, ["message": "not yet"])
    }
}
