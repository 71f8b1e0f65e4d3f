// swift-tools-version:6.0
// oceq: a scriptable REPL for Oracle Content Management's Content Delivery API, and `oceq serve`,
// the same API answered from a channel export on disk. Only the toolchain and Debian's C libraries.
import PackageDescription

let package = Package(
    name: "oceq",
    products: [
        .executable(name: "oceq", targets: ["oceq"]),
        .library(name: "DeliveryKit", targets: ["DeliveryKit"]),
        .library(name: "ChannelServer", targets: ["ChannelServer"]),
        .library(name: "OCEQShell", targets: ["OCEQShell"]),
    ],
    targets: [
        // C libraries from Debian, each behind a one-header shim. All are opened at first use (dlopen),
        // not linked, so that a start of oceq does not load them and their dependencies (about 8 ms of a
        // 10 ms `oceq --version`): see their shims. So no pkg-config module for them, or SwiftPM would
        // add -lcurl and the rest to every link.
        .systemLibrary(name: "CMicroHTTPD", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CArchive"),
        .systemLibrary(name: "CVips"),
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CEditLine", providers: [.apt(["libedit-dev"])]),
        .systemLibrary(name: "CLibXML2", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CChafa", providers: [.apt(["libchafa-dev"])]),

        // The shared vocabulary, no C: JSON, URL encoding, `Locked`, calendar arithmetic, text helpers.
        .target(name: "OCEQCore", linkerSettings: [.linkedLibrary("m")]),

        // The delivery client: requests, query tree, models, transport.
        .target(name: "DeliveryKit", dependencies: ["OCEQCore", "CCurl"]),

        // `oceq serve`: export reader, SQLite index, `q` evaluation, HTTP on libmicrohttpd.
        .target(
            name: "ChannelServer",
            dependencies: ["OCEQCore", "DeliveryKit", "CMicroHTTPD", "CSQLite", "CArchive", "CVips"]),

        // The oceq language: lexer, parser, AST, diagnostics, printer and compiler to delivery requests.
        .target(name: "OCEQLanguage", dependencies: ["OCEQCore", "DeliveryKit"]),
        // Parse + compile throughput, run by Scripts/bench-language.
        .executableTarget(name: "oceq-bench-language", dependencies: ["OCEQLanguage"]),

        // Rich text and images for the terminal: HTML through libxml2 to wrapped, styled text; images
        // decoded by libvips (shrink-on-load) and drawn by chafa. Below the shell; modules use it.
        .target(name: "TerminalMedia", dependencies: ["CLibXML2", "CChafa", "CVips"]),

        // The shell: command registry, session, renderers, line editing on libedit with history, the
        // script runner and the REPL loop.
        .target(
            name: "OCEQShell",
            dependencies: ["OCEQCore", "OCEQLanguage", "DeliveryKit", "ChannelServer", "CEditLine", "TerminalMedia"]),
        // Reads lines with EditLineReader and echoes them; driven through a pty by OCEQShellTests.
        .executableTarget(name: "oceq-editline-demo", dependencies: ["OCEQShell"]),

        // The blog sample's screens as commands: home, topics, articles, read, author.
        .target(name: "BlogModule", dependencies: ["OCEQCore", "OCEQShell", "DeliveryKit", "TerminalMedia"]),
        // Asset inspection: show, fields, field, renditions, types, taxonomies, categories.
        .target(
            name: "AssetModule",
            dependencies: ["OCEQCore", "OCEQShell", "OCEQLanguage", "DeliveryKit", "TerminalMedia"]),
        // Downloads: `download` (native files, renditions, thumbnails; one item or a selection).
        .target(
            name: "DownloadModule",
            dependencies: ["OCEQCore", "OCEQShell", "OCEQLanguage", "DeliveryKit", "AssetModule"]),

        // `mirror`: a channel (or a selection) to an OCM export on disk, in the 2023 layout.
        .target(name: "MirrorModule", dependencies: ["OCEQCore", "OCEQShell", "OCEQLanguage", "DeliveryKit"]),

        // The thin executable.
        .executableTarget(
            name: "oceq",
            dependencies: [
                "OCEQCore", "OCEQShell", "ChannelServer", "DeliveryKit", "BlogModule", "AssetModule", "DownloadModule",
                "MirrorModule",
            ]),

        // `swift package oceq-lint [PATH...]`: checks .oceq files by building and running `oceq lint`.
        .plugin(
            name: "OCEQLint",
            capability: .command(
                intent: .custom(verb: "oceq-lint", description: "check .oceq scripts without a channel"))),

        // The download benchmark's client (Scripts/bench-download runs it beside curl).
        .executableTarget(name: "oceq-bench-download", dependencies: ["OCEQCore", "DeliveryKit"]),

        // Helpers shared by the test targets (golden files, temporary folders, the oceq binary).
        .target(name: "OCEQTestSupport", dependencies: ["OCEQTestHome"], path: "Tests/OCEQTestSupport"),
        // Before main, every test process points HOME and the XDG folders at a fresh folder of its own.
        .target(name: "OCEQTestHome", path: "Tests/OCEQTestHome"),

        .testTarget(
            name: "DeliveryKitTests", dependencies: ["OCEQCore", "DeliveryKit", "OCEQTestSupport"],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "OCEQLanguageTests", dependencies: ["OCEQCore", "OCEQLanguage", "DeliveryKit", "OCEQTestSupport"],
            exclude: ["Golden"]),
        .testTarget(
            name: "ChannelServerTests", dependencies: ["OCEQCore", "ChannelServer", "DeliveryKit", "OCEQTestSupport"],
            resources: [.copy("Fixtures")]),
        // DeliveryKit over libcurl against an in-process `oceq serve` of the bundled sample channel.
        .testTarget(
            name: "EndToEndTests", dependencies: ["OCEQCore", "DeliveryKit", "ChannelServer", "OCEQTestSupport"]),
        .testTarget(
            name: "OCEQShellTests", dependencies: ["OCEQCore", "OCEQShell", "oceq-editline-demo", "OCEQTestSupport"],
            exclude: ["Golden"]),
        .testTarget(
            name: "BlogModuleTests",
            dependencies: ["OCEQCore", "BlogModule", "OCEQShell", "OCEQTestSupport", "TerminalMedia"],
            exclude: ["Golden"]),
        .testTarget(
            name: "TerminalMediaTests", dependencies: ["OCEQCore", "TerminalMedia", "OCEQTestSupport"],
            exclude: ["Golden"]),
        .testTarget(
            name: "AssetModuleTests",
            dependencies: ["OCEQCore", "AssetModule", "OCEQShell", "DeliveryKit", "OCEQTestSupport"],
            exclude: ["Golden"]),
        .testTarget(
            name: "DownloadModuleTests",
            dependencies: [
                "OCEQCore", "DownloadModule", "OCEQShell", "DeliveryKit", "ChannelServer", "OCEQTestSupport",
            ],
            exclude: ["Golden"]),
        .testTarget(
            name: "MirrorModuleTests",
            dependencies: ["OCEQCore", "MirrorModule", "OCEQShell", "ChannelServer", "DeliveryKit", "OCEQTestSupport"]),
    ]
)
