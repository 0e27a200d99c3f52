import Foundation
import MockBinding

/// APNs' answer to one push.
package struct APNsResponse: Sendable, Equatable {
    /// HTTP status (200 delivered; 400, 410, … refused).
    package var status: Int
    /// Apple's `reason` for a refusal (`BadDeviceToken`, `Unregistered`).
    package var reason: String?

    package init(status: Int, reason: String? = nil) {
        self.status = status
        self.reason = reason
    }
}

/// Sends one push to APNs. send-push-notification uses it; tests inject `FakeAPNs`.
package protocol APNsClient: Sendable {
    /// Sends `payload` to a device token with the APNs request headers.
    func send(deviceToken: String, payload: JSONValue, headers: [String: String]) -> APNsResponse
}

/// A deterministic APNs (functions.json `apns.fake`): a token that is not `tokenHexLength`
/// lowercase hex digits gets 400 BadDeviceToken, a well-formed one starting with
/// `unregisteredPrefix` 410 Unregistered, any other is delivered and recorded.
///
/// Safe to call from concurrent edge-function calls: its log is behind a `Guarded` lock.
package final class FakeAPNs: APNsClient, Sendable {
    /// One push APNs accepted.
    package struct Delivery: Sendable, Equatable {
        package var deviceToken: String
        /// The JSON payload (`aps` and custom keys).
        package var payload: JSONValue
        /// apns-topic, apns-push-type, apns-priority.
        package var headers: [String: String]
    }

    private struct Log {
        var deliveries: [Delivery] = []
        var attempts: [(token: String, response: APNsResponse)] = []
    }
    private let log = Guarded(Log())
    private let hexLength: Int
    private let unregisteredPrefix: String

    /// A fake with the rules of functions.json (`apns.fake`).
    package convenience init() {
        let apns = (try? NaarsCarsContracts.load().functions.apns)
        self.init(tokenHexLength: apns?.fakeTokenHexLength ?? 0, unregisteredPrefix: apns?.fakeUnregisteredPrefix ?? "")
    }

    /// A fake with explicit rules.
    package init(tokenHexLength: Int, unregisteredPrefix: String) {
        hexLength = tokenHexLength
        self.unregisteredPrefix = unregisteredPrefix
    }

    package func send(deviceToken: String, payload: JSONValue, headers: [String: String]) -> APNsResponse {
        let wellFormed = deviceToken.utf8.count == hexLength && deviceToken.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
        let response: APNsResponse
        if !wellFormed {
            response = APNsResponse(status: 400, reason: "BadDeviceToken")
        } else if !unregisteredPrefix.isEmpty && deviceToken.hasPrefix(unregisteredPrefix) {
            response = APNsResponse(status: 410, reason: "Unregistered")
        } else {
            response = APNsResponse(status: 200)
        }
        log.withLock {
            $0.attempts.append((deviceToken, response))
            if response.status == 200 { $0.deliveries.append(Delivery(deviceToken: deviceToken, payload: payload, headers: headers)) }
        }
        return response
    }

    /// Pushes delivered so far ("notification received", EDGE-001).
    package var deliveries: [Delivery] { log.withLock { $0.deliveries } }
    /// Every attempt with its answer.
    package var responses: [(token: String, response: APNsResponse)] { log.withLock { $0.attempts } }
    /// Forgets the log.
    package func reset() { log.withLock { $0 = Log() } }
}
