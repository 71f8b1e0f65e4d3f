// The secrets oceq knows before it connects: the command line's `--token` and `--bearer`,
// `OCEQ_CHANNEL_TOKEN` and `OCEQ_BEARER`, and the tokens of the credentials file or profile in
// force. Text printed before there is a session (a syntax error in `-c` text, a script or stdin,
// whose echoed line may hold a token) is redacted with them.

import DeliveryKit
import FoundationEssentials
import OCEQCore

extension Credentials {
    /// Every secret the command line, the environment and the credentials in force name (a file
    /// that cannot be read or parsed adds none).
    package static func knownSecrets(
        _ overrides: Overrides, environment: [String: String], currentDirectory: String
    ) -> [String] {
        let resolved = try? resolve(overrides, environment: environment, currentDirectory: currentDirectory)
        let all = [
            overrides.token, overrides.bearer, environment["OCEQ_CHANNEL_TOKEN"], environment["OCEQ_BEARER"],
            resolved?.channelToken, resolved?.bearer,
        ]
        return Array(Set(all.compactMap { $0 }.filter { !$0.isEmpty })).sorted()
    }

    /// A function hiding `knownSecrets` in text (as `Session.redact` does once connected).
    package static func redaction(
        _ overrides: Overrides, environment: [String: String], currentDirectory: String
    ) -> @Sendable (String) -> String {
        let redactor = Redactor(
            secrets: knownSecrets(overrides, environment: environment, currentDirectory: currentDirectory))
        return { redactor.redact($0) }
    }
}
