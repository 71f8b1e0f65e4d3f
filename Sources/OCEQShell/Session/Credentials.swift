// Where oceq connects, decided once at start:
//
//   1. `--profile NAME` (an entry of `~/.config/oceq/profiles.json`), else `--credentials FILE`, else `./credentials.json`, else `$XDG_CONFIG_HOME/oceq/credentials.json`
//      (`~/.config/oceq/credentials.json`): `{"url": ..., "channelToken": ..., "authorization": ...}`;
//   2. `OCEQ_URL`, `OCEQ_CHANNEL_TOKEN`, `OCEQ_BEARER` override the file;
//   3. `--url`, `--token`, `--bearer` override both.
//
// A `url` that is not `http(s)://` is a path to a channel export (folder or zip); a relative path
// is resolved against the folder of the credentials file that named it.

import DeliveryKit
import FoundationEssentials
import OCEQCore
import OCEQLanguage

/// The server and secrets to connect with. Never printed: `description` hides the tokens.
package struct Credentials: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// `https://host[:port]`, or a local export path.
    package var url: String
    /// The channel token, if any.
    package var channelToken: String?
    /// A bearer token for a secure channel, if any.
    package var bearer: String?
    /// The file the settings came from, if one was read.
    package var file: String?
    /// Where `url` was given (`the url in PATH`, `OCEQ_URL`, `--url`), for an error about it; nil when a
    /// command gave it (`connect`).
    package var urlOrigin: String?
    /// Things worth telling the user (a bearer in a file others can read).
    package var warnings: [String] = []
    /// `--cacert FILE`, resolved against the current folder: the CAs https is checked against.
    package var caBundle: String?
    /// `--insecure`: TLS certificates and host names are not checked.
    package var insecure = false
    /// The profile of `profiles.json` these came from: the name the prompt shows for a server, whose
    /// delivery API does not tell its channel's name.
    package var profile: String?

    /// Credentials with every part given.
    package init(url: String, channelToken: String? = nil, bearer: String? = nil, file: String? = nil) {
        self.url = url
        self.channelToken = channelToken
        self.bearer = bearer
        self.file = file
        self.urlOrigin = file.map { "the url in \($0)" }
    }

    /// True when `url` names a local export rather than a server.
    package var isLocalExport: Bool { !["http", "https"].contains(Self.scheme(of: url)?.lowercased()) }

    package var description: String {
        "\(url) (token \(channelToken == nil ? "none" : "REDACTED"), bearer \(bearer == nil ? "none" : "REDACTED"))"
    }

    /// `Credentials(<description>)`, tokens hidden.
    package var debugDescription: String { "Credentials(\(description))" }

    /// Reflection (`dump`) shows the tokens as `Secret`s, which print `REDACTED`.
    package var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "url": url, "channelToken": channelToken.map { Secret($0) } as Any,
                "bearer": bearer.map { Secret($0) } as Any, "file": file as Any, "warnings": warnings,
                "profile": profile as Any,
            ])
    }

    /// What the command line said about the connection.
    package struct Overrides: Sendable, Equatable {
        package var credentialsFile: String?
        package var url: String?
        package var token: String?
        package var bearer: String?
        /// `--profile NAME`: an entry of `profiles.json` instead of a credentials file.
        package var profile: String?
        /// `--cacert FILE`: the certificate authorities https is checked against.
        package var caBundle: String?
        /// `--insecure`: TLS certificates and host names are not checked.
        package var insecure = false

        /// Overrides from flags.
        package init(
            credentialsFile: String? = nil, url: String? = nil, token: String? = nil, bearer: String? = nil,
            profile: String? = nil
        ) {
            self.credentialsFile = credentialsFile
            self.url = url
            self.token = token
            self.bearer = bearer
            self.profile = profile
        }
    }

    /// The credentials in force: file, then environment, then flags (see the top of the file).
    package static func resolve(
        _ overrides: Overrides, environment: [String: String], currentDirectory: String
    ) throws(ShellError) -> Credentials {
        var credentials = Credentials(url: "")
        let candidates: [String]
        if let name = overrides.profile {
            credentials = try profile(name, environment: environment)
            candidates = []
        } else if let file = overrides.credentialsFile {
            candidates = [XDGPaths.resolve(file, in: currentDirectory)]
        } else {
            var list = [currentDirectory + "/credentials.json"]
            if let file = XDGPaths(environment: environment).credentialsFile { list.append(file) }
            candidates = list
        }
        for path in candidates {
            // Read with open/read: Foundation's read of a file that is missing (./credentials.json, most starts
            // with --url) cost 0.4 M instructions, most of them in building the error it then drops.
            guard let data = try? FileSystem.read(path) else {
                if overrides.credentialsFile != nil {
                    throw .connection("cannot read credentials file \(path); check the path given to --credentials")
                }
                continue
            }
            guard let json = try? JSON.parse(data), case .object(let object) = json else {
                throw .connection(
                    "\(path) is not a credentials file; expected {\"url\": \"...\", \"channelToken\": \"...\"}")
            }
            credentials = Credentials(object, file: path)
            break
        }
        if let url = environment["OCEQ_URL"], !url.isEmpty {
            credentials.url = absoluteURL(url, currentDirectory)
            credentials.urlOrigin = "OCEQ_URL"
            credentials.profile = nil
        }
        if let token = environment["OCEQ_CHANNEL_TOKEN"], !token.isEmpty { credentials.channelToken = token }
        if let bearer = environment["OCEQ_BEARER"], !bearer.isEmpty { credentials.bearer = bearer }
        if let url = overrides.url {
            credentials.url = absoluteURL(url, currentDirectory)
            credentials.urlOrigin = "--url"
            credentials.profile = nil
        }
        if let token = overrides.token { credentials.channelToken = token }
        if let bearer = overrides.bearer { credentials.bearer = bearer }
        credentials.caBundle = overrides.caBundle.map { XDGPaths.resolve($0, in: currentDirectory) }
        credentials.insecure = overrides.insecure
        if overrides.insecure && scheme(of: credentials.url)?.lowercased() == "https" {
            credentials.warnings.append("--insecure: the server's TLS certificate and host name are not checked")
        }
        guard !credentials.url.isEmpty else {
            throw .connection(
                "no channel to connect to: give --url and --token, or write credentials.json "
                    + "({\"url\": ..., \"channelToken\": ...}) here or in ~/.config/oceq/")
        }
        return credentials
    }

    /// Credentials from a credentials object read from `file` (relative export paths are taken
    /// from the file's folder; a bearer in a file others can read is warned about).
    init(_ object: [String: JSON], file path: String) {
        self.init(url: "", file: path)
        if let url = object["url"]?.stringValue {
            self.url = url
            if isLocalExport { self.url = Self.absoluteURL(url, PathText.parent(of: path)) }
        }
        channelToken = object["channelToken"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        if let authorization = object["authorization"]?.stringValue, !authorization.isEmpty {
            bearer = authorization.hasPrefix("Bearer ") ? String(authorization.dropFirst(7)) : authorization
            if let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                let mode = attributes[.posixPermissions] as? Int, mode & 0o044 != 0
            {
                warnings.append("\(path) holds a bearer token and others can read it; chmod 600 \(path)")
            }
        }
    }

    /// `$XDG_CONFIG_HOME/oceq/profiles.json`, else `~/.config/oceq/profiles.json`; nil when neither
    /// variable names a folder.
    package static func profilesFile(environment: [String: String]) -> String? {
        XDGPaths(environment: environment).profilesFile
    }

    /// The profile `name` of `profiles.json`: `{"NAME": {"url": ..., "channelToken": ...}, ...}`.
    package static func profile(_ name: String, environment: [String: String]) throws(ShellError) -> Credentials {
        guard let path = profilesFile(environment: environment) else {
            throw .connection(
                "no profile '\(name)': neither XDG_CONFIG_HOME nor HOME is an absolute path, so there is no "
                    + "profiles.json to read")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .connection("no profile '\(name)': there is no \(path)")
        }
        guard let json = try? JSON.parse(Array(data)), case .object(let profiles) = json else {
            throw .connection(
                "\(path) is not a profiles file; expected {\"NAME\": {\"url\": ..., \"channelToken\": ...}}")
        }
        guard case .object(let object)? = profiles[name] else {
            let names = profiles.keys.sorted()
            let hint = Suggestions.closest(to: name, among: names).map { "; did you mean '\($0)'?" } ?? ""
            throw .connection(
                "no profile '\(name)' in \(path)\(hint)"
                    + (names.isEmpty ? "" : " (profiles: \(names.joined(separator: ", ")))"))
        }
        var credentials = Credentials(object, file: path)
        credentials.profile = name
        credentials.urlOrigin = "the url of profile '\(name)' in \(path)"
        return credentials
    }

    static func absoluteURL(_ url: String, _ directory: String) -> String {
        scheme(of: url) != nil ? url : XDGPaths.resolve(url, in: directory)
    }

    /// The scheme of `url` (`https`, `ftp`) when it starts with one followed by `://`; nil for a path.
    package static func scheme(of url: String) -> String? {
        guard let range = url.firstRange(of: "://") else { return nil }
        let scheme = url[..<range.lowerBound]
        func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
        guard let first = scheme.utf8.first, isLetter(first),
            scheme.utf8.allSatisfy({ isLetter($0) || (0x30...0x39).contains($0) || "+.-".utf8.contains($0) })
        else { return nil }
        return String(scheme)
    }

}
