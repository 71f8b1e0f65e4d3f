import DeliveryKit
import Foundation
import OCEQApp
import OCEQTestSupport
import Testing

@testable import OCEQShell

@Suite("Credentials")
struct CredentialsTests {
    func folder(_ json: String?) throws -> String {
        let path = TestTemporary.make("oceq-credentials")
        try FileManager.default.createDirectory(atPath: path + "/sub", withIntermediateDirectories: true)
        if let json { try json.write(toFile: path + "/credentials.json", atomically: false, encoding: .utf8) }
        return path
    }

    @Test("./credentials.json, a relative export path resolved against its folder")
    func localFile() throws {
        let directory = try folder(#"{"url": "Samples/X", "channelToken": "abc"}"#)
        defer { TestTemporary.remove(directory) }
        let credentials = try Credentials.resolve(.init(), environment: [:], currentDirectory: directory)
        #expect(credentials.url == directory + "/Samples/X")
        #expect(credentials.channelToken == "abc")
        #expect(credentials.isLocalExport)
    }

    @Test("--credentials FILE resolves paths against FILE's folder, not the current one")
    func explicitFile() throws {
        let directory = try folder(#"{"url": "export", "channelToken": "abc", "authorization": "Bearer xyz"}"#)
        defer { TestTemporary.remove(directory) }
        let credentials = try Credentials.resolve(
            .init(credentialsFile: directory + "/credentials.json"), environment: [:], currentDirectory: "/")
        #expect(credentials.url == directory + "/export")
        #expect(credentials.bearer == "xyz")
    }

    @Test("$XDG_CONFIG_HOME/oceq/credentials.json when there is none here")
    func xdg() throws {
        let config = try folder(nil)
        defer { TestTemporary.remove(config) }
        try FileManager.default.createDirectory(atPath: config + "/oceq", withIntermediateDirectories: true)
        try #"{"url": "https://example.com", "channelToken": "t"}"#.write(
            toFile: config + "/oceq/credentials.json", atomically: false, encoding: .utf8)
        let empty = try folder(nil)
        defer { TestTemporary.remove(empty) }
        let credentials = try Credentials.resolve(
            .init(), environment: ["XDG_CONFIG_HOME": config], currentDirectory: empty)
        #expect(credentials.url == "https://example.com")
    }

    @Test("environment overrides the file, flags override both")
    func overrides() throws {
        let directory = try folder(#"{"url": "https://file.example", "channelToken": "file"}"#)
        defer { TestTemporary.remove(directory) }
        let environment = [
            "OCEQ_URL": "https://env.example", "OCEQ_CHANNEL_TOKEN": "env", "OCEQ_BEARER": "envbearer",
        ]
        let fromEnvironment = try Credentials.resolve(.init(), environment: environment, currentDirectory: directory)
        #expect(fromEnvironment.url == "https://env.example")
        #expect(fromEnvironment.channelToken == "env")
        #expect(fromEnvironment.bearer == "envbearer")
        let fromFlags = try Credentials.resolve(
            .init(url: "https://flag.example", token: "flag"), environment: environment, currentDirectory: directory)
        #expect(fromFlags.url == "https://flag.example")
        #expect(fromFlags.channelToken == "flag")
    }

    @Test("a url naming no folder or zip says where that url was given: the file, OCEQ_URL, --url or a command")
    func missingExportNamesItsOrigin() throws {
        let directory = try folder(#"{"url": "nowhere", "channelToken": "t"}"#)
        defer { TestTemporary.remove(directory) }
        func message(_ overrides: Credentials.Overrides, _ environment: [String: String] = [:]) throws -> String {
            try message(Credentials.resolve(overrides, environment: environment, currentDirectory: directory))
        }
        func message(_ credentials: Credentials) -> String {
            do {
                _ = try Connection.open(credentials, opener: InProcessServer())
            } catch {
                return error.description
            }
            Issue.record("\(credentials.url) opened")
            return ""
        }
        let tail = "a server (http:// or https://) or an export folder or zip"
        #expect(
            try message(.init())
                == "\(directory)/nowhere does not exist; the url in \(directory)/credentials.json must be \(tail)")
        #expect(try message(.init(), ["OCEQ_URL": "/none"]) == "/none does not exist; OCEQ_URL must be \(tail)")
        #expect(try message(.init(url: "/none"), ["OCEQ_URL": "/x"]) == "/none does not exist; --url must be \(tail)")
        #expect(
            message(Credentials(url: "/none", channelToken: "t")) == "/none does not exist; give \(tail)",
            "connect PATH: no file or flag to name")
        // Another scheme is named as such, not read as a path under the current folder.
        #expect(
            try message(Credentials.Overrides(url: "ftp://host/x"))
                == "ftp:// is not a scheme oceq speaks; --url must be \(tail)")
    }

    @Test("a url's scheme: letters first, then letters, digits, + . -, before ://; HTTPS is https")
    func schemes() async throws {
        #expect(Credentials.scheme(of: "https://host") == "https")
        #expect(Credentials.scheme(of: "svn+ssh://host") == "svn+ssh")
        #expect(Credentials.scheme(of: "HTTPS://host") == "HTTPS")
        #expect(Credentials.scheme(of: "/path/to/export") == nil)
        #expect(Credentials.scheme(of: "exports/a://b") == nil, "a path holding :// is a path")
        #expect(Credentials.scheme(of: "1x://host") == nil)
        #expect(!Credentials(url: "HTTPS://host", channelToken: "t").isLocalExport)
        #expect(Credentials(url: "file:///x", channelToken: "t").isLocalExport)
        let sample = try #require(sampleConnection)
        let origin = sample.client.configuration.server.origin
        let upper = "HTTP://" + origin.dropFirst("http://".count)
        let connection = try Connection.open(
            Credentials(url: upper, channelToken: "935a30048d49b8479c9bc1577e392eba"), opener: nil)
        #expect(connection.client.configuration.server.origin == origin)
        #expect(try await connection.client.fetch(DeliveryAPI.listAssets().limit(1)).items.count == 1)
    }

    @Test("a local export with an unreadable item opens, with one warning counting the problem")
    func exportWithAProblem() throws {
        let directory = try folder(nil)
        defer { TestTemporary.remove(directory) }
        let export = directory + "/export"
        try FileManager.default.copyItem(atPath: repositoryRoot.path + "/Samples/OCEGettingStarted", toPath: export)
        try "not json".write(
            toFile: export + "/contentexport/ContentItems/Image/CONTBAD.json", atomically: false, encoding: .utf8)
        let connection = try Connection.open(Credentials(url: export, channelToken: nil), opener: InProcessServer())
        #expect(
            connection.warnings == [
                "1 problem in \(export) (an item left out, or an asset without its native file); "
                    + "'oceq serve \(export)' names it"
            ])
    }

    @Test("no channel at all, or a missing --credentials file, is one clear error")
    func missing() throws {
        let empty = try folder(nil)
        defer { TestTemporary.remove(empty) }
        #expect(throws: ShellError.self) {
            _ = try Credentials.resolve(.init(), environment: ["HOME": empty], currentDirectory: empty)
        }
        #expect(throws: ShellError.self) {
            _ = try Credentials.resolve(
                .init(credentialsFile: empty + "/nope.json"), environment: [:], currentDirectory: empty)
        }
    }

    @Test("secrets are never in the description")
    func redacted() {
        let credentials = Credentials(url: "https://x", channelToken: "sekrit", bearer: "beary")
        #expect(!credentials.description.contains("sekrit"))
        #expect(!credentials.description.contains("beary"))
    }

    @Test("a folder that is not an export is one clear error")
    func notAnExport() throws {
        let directory = try folder(nil)
        defer { TestTemporary.remove(directory) }
        #expect(throws: ShellError.self) {
            _ = try Connection.open(Credentials(url: directory + "/sub", channelToken: "t"), opener: InProcessServer())
        }
        #expect(throws: ShellError.self) {
            _ = try Connection.open(
                Credentials(url: directory + "/missing", channelToken: "t"), opener: InProcessServer())
        }
    }
}

@Suite("Credentials file permissions")
struct CredentialsPermissionTests {
    @Test("a bearer in a file others can read gets a warning; a private one does not")
    func bearerWarning() throws {
        let path = TestTemporary.path("oceq-bearer", suffix: ".json")
        defer { TestTemporary.remove(path) }
        try #"{"url": "https://x", "channelToken": "t", "authorization": "Bearer b"}"#.write(
            toFile: path, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        let open = try Credentials.resolve(.init(credentialsFile: path), environment: [:], currentDirectory: "/")
        #expect(open.warnings.count == 1)
        #expect(!open.warnings[0].contains("Bearer b"))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        let closed = try Credentials.resolve(.init(credentialsFile: path), environment: [:], currentDirectory: "/")
        #expect(closed.warnings.isEmpty)
    }
}

@Suite("Profiles")
struct ProfileTests {
    /// A config folder with a profiles.json of `sample` (the bundled channel, by a relative path) and `remote`.
    static func config() throws -> String {
        let directory = TestTemporary.make("oceq-profiles")
        try FileManager.default.createDirectory(atPath: directory + "/oceq", withIntermediateDirectories: true)
        let samples = repositoryRoot.appendingPathComponent("Samples").path
        try FileManager.default.createSymbolicLink(atPath: directory + "/oceq/Samples", withDestinationPath: samples)
        try """
        {"sample": {"url": "Samples/OCEGettingStarted", "channelToken": "935a30048d49b8479c9bc1577e392eba"},
         "remote": {"url": "https://example.com", "channelToken": "r"}}
        """.write(toFile: directory + "/oceq/profiles.json", atomically: false, encoding: .utf8)
        return directory
    }

    @Test("--profile NAME reads profiles.json; paths are relative to it; flags still override")
    func resolve() throws {
        let config = try ProfileTests.config()
        defer { TestTemporary.remove(config) }
        let sample = try Credentials.resolve(
            .init(profile: "sample"), environment: ["XDG_CONFIG_HOME": config], currentDirectory: "/")
        #expect(sample.url.hasSuffix("/Samples/OCEGettingStarted"))
        #expect(FileManager.default.fileExists(atPath: sample.url + "/channel.json"))
        let remote = try Credentials.resolve(
            .init(token: "flag", profile: "remote"), environment: ["XDG_CONFIG_HOME": config], currentDirectory: "/")
        #expect(remote.url == "https://example.com")
        #expect(remote.channelToken == "flag")
    }

    @Test("a server reached through a profile is named by the profile (the prompt shows it), unless --url moved it")
    func profileNamesTheChannel() throws {
        let config = try ProfileTests.config()
        defer { TestTemporary.remove(config) }
        let remote = try Credentials.resolve(
            .init(profile: "remote"), environment: ["XDG_CONFIG_HOME": config], currentDirectory: "/")
        #expect(remote.profile == "remote")
        #expect(try Connection.open(remote, opener: nil).channelName == "remote")
        let moved = try Credentials.resolve(
            .init(url: "https://other.example", profile: "remote"), environment: ["XDG_CONFIG_HOME": config],
            currentDirectory: "/")
        #expect(moved.profile == nil)
        #expect(try Connection.open(moved, opener: nil).channelName == "other.example")
        let plain = Credentials(url: "https://example.com:8443", channelToken: "t")
        #expect(try Connection.open(plain, opener: nil).channelName == "example.com")
    }

    @Test("an unknown profile names the file and suggests the closest")
    func unknown() throws {
        let config = try ProfileTests.config()
        defer { TestTemporary.remove(config) }
        do {
            _ = try Credentials.resolve(
                .init(profile: "sampel"), environment: ["XDG_CONFIG_HOME": config], currentDirectory: "/")
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("no profile 'sampel'"))
            #expect(error.description.contains("did you mean 'sample'?"))
        }
    }

    @Test("oceq --profile and connect PROFILE, end to end")
    func endToEnd() async throws {
        let config = try ProfileTests.config()
        defer { TestTemporary.remove(config) }
        let result = try await Oceq.run(
            ["-c", "connect sample", "-c", "count type=OCEGettingStartedTopic"],
            environment: ["XDG_CONFIG_HOME": config])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout == "connected to OCEGettingStarted, 146 items\n7\n")
        let viaFlag = try await Oceq.run(
            ["--profile", "sample", "-c", "count type=OCEGettingStartedTopic"], environment: ["XDG_CONFIG_HOME": config]
        )
        #expect(viaFlag.code == 0, "\(viaFlag.stderr)")
        #expect(viaFlag.stdout == "7\n")
    }
}
