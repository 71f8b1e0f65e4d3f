// swift-tools-version:6.0
// oceq: a scriptable REPL for Oracle Content Management's Content Delivery API, and `oceq serve`,
// the same API answered from a channel export on disk. Only the toolchain and Debian's C libraries.
import PackageDescription

/// Debian's multiarch directory, where glib and chafa keep their configuration headers.
#if arch(arm64)
    let multiarch = "aarch64-linux-gnu"
#else
    let multiarch = "x86_64-linux-gnu"
#endif
/// glib's include paths (pkg-config --cflags glib-2.0), for the C files that include libvips or libchafa.
let glibIncludes = ["-I/usr/include/glib-2.0", "-I/usr/lib/\(multiarch)/glib-2.0/include"]

let package = Package(
    name: "oceq",
    products: [
        .executable(name: "oceq", targets: ["oceq"]),
        .library(name: "DeliveryKit", targets: ["DeliveryKit"]),
        .library(name: "DeliveryTransport", targets: ["DeliveryTransport"]),
        .library(name: "ChannelServer", targets: ["ChannelServer"]),
    ],
    targets: [
        // C from libc and the dynamic loader: file helpers glibc hides behind _GNU_SOURCE, heap limits for
        // `oceq serve`, terminal helpers, and the one loader of the libraries opened at first use below.
        .target(name: "CSystem"),
        // C libraries from Debian. Linked normally, libcurl: every command that reaches a channel uses it (a
        // one-shot `oceq -c` against a server uses it and nothing else). Opened at first use, through CSystem's
        // one loader whose tables the compiler types from each library's header, the libraries only some
        // commands need: libedit (the REPL on a terminal and its history), libmicrohttpd, SQLite, libarchive,
        // libvips (`oceq serve`, a `url` that is an export), libxml2 and libchafa (rich text, images). A missing
        // one is a thrown `LibraryUnavailable` naming its Debian package (libedit's: the REPL reads plain lines).
        // Scripts/bench-startup, release, 2 cores shared with other builds; mean ms of two runs (30 and 50
        // each), CPU (user + system) from hyperfine; before = all eight opened at first use:
        //                                 before          after (libcurl + libedit linked)
        //   sqlite3 -version               2.18 /  2.34    1.77 /  2.45
        //   oceq --version                 4.85 /  6.03   14.85 / 12.75   CPU 2.3 -> 6.5; 5 -> 39 shared objects
        //   one-shot list, --format json  12.25 / 11.01   12.59 / 16.42   CPU 8.7-10.2 both (noise: sigma > mean)
        //   curl of the same URL           7.61 /  5.29    7.98 /  5.47
        // LD_PRELOAD on the before build: libcurl alone gives the whole `--version` difference. So linking libcurl
        // costs `--version` (and `lint`, `--help`, scripts without a channel) about 8 ms of wall time and 4 ms of
        // CPU, and leaves the one-shot list as it was: it loaded libcurl anyway. Linked, libedit cost every
        // start: its objects (libedit, libtinfo, libbsd, libmd) stood in every symbol lookup's path ahead of
        // libcurl's dependencies (callgrind, `oceq --version`: 19.0 M instructions linked, 17.0 M opened at
        // first use; issue 21, README "Start-up").
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // Opened at first use through CSystem's loader; the headers of libvips, libchafa and libxml2 need
        // include paths, which only their own C file sees.
        .target(name: "CEditLine", dependencies: ["CSystem"]),
        .target(name: "CMicroHTTPD", dependencies: ["CSystem"]),
        .target(name: "CSQLite", dependencies: ["CSystem"]),
        .target(name: "CArchive", dependencies: ["CSystem"]),
        .target(name: "CVips", dependencies: ["CSystem"], cSettings: [.unsafeFlags(glibIncludes)]),
        .target(name: "CLibXML2", dependencies: ["CSystem"], cSettings: [.unsafeFlags(["-I/usr/include/libxml2"])]),
        // ICU's calendar, for a date in a named time zone (the blog's posted dates): FoundationEssentials knows
        // no zone by name without ICU, which full Foundation would link into every start (README "Start-up").
        .target(name: "CICU", dependencies: ["CSystem"]),
        .target(
            name: "CChafa", dependencies: ["CSystem"],
            cSettings: [.unsafeFlags(glibIncludes + ["-I/usr/include/chafa", "-I/usr/lib/\(multiarch)/chafa/include"])]
        ),

        // The shared vocabulary, no C: JSON, the `q` expression (one printer, one parser), dates, URL encoding,
        // the redactor, `Locked`, suggestions, usage errors, the argument scanner, XDG paths, safe file names.
        .target(name: "OCEQCore", linkerSettings: [.linkedLibrary("m")]),

        // The delivery API as values: requests, query tree, models, the `Transport` seam. No C.
        .target(name: "DeliveryKit", dependencies: ["OCEQCore"]),
        // The delivery client over libcurl: `CurlTransport`, `DeliveryClient` (retries, paging) and downloads.
        .target(name: "DeliveryTransport", dependencies: ["OCEQCore", "DeliveryKit", "CCurl", "CSystem"]),

        // `oceq serve`: export reader, SQLite index, `q` evaluation, HTTP on libmicrohttpd.
        .target(
            name: "ChannelServer",
            dependencies: ["OCEQCore", "CSystem", "CMicroHTTPD", "CSQLite", "CArchive", "CVips"]),

        // The oceq language: lexer, parser, AST, diagnostics, printer and compiler to delivery requests.
        .target(name: "OCEQLanguage", dependencies: ["OCEQCore", "DeliveryKit"]),
        // Parse + compile throughput, run by Scripts/bench-language.
        .executableTarget(name: "oceq-bench-language", dependencies: ["OCEQLanguage"]),

        // Rich text and images for the terminal: HTML through libxml2 to wrapped, styled text; images
        // decoded by libvips (shrink-on-load) and drawn by chafa. Below the shell; modules use it.
        .target(name: "TerminalMedia", dependencies: ["CSystem", "CLibXML2", "CChafa", "CVips"]),

        // The shell: command registry, session, renderers, line editing on libedit with history, the
        // script runner, the REPL loop, and the item lookup the modules share. It does not know the
        // server: a local export is served by an opener the executable injects.
        .target(
            name: "OCEQShell",
            dependencies: [
                "OCEQCore", "OCEQLanguage", "DeliveryKit", "DeliveryTransport", "CSystem", "CEditLine", "TerminalMedia",
            ]),
        // Reads lines with EditLineReader and echoes them; driven through a pty by OCEQShellTests.
        .executableTarget(name: "oceq-editline-demo", dependencies: ["OCEQShell"]),

        // The blog sample's screens as commands: home, topics, articles, read, author.
        .target(
            name: "BlogModule",
            dependencies: ["OCEQCore", "OCEQShell", "DeliveryKit", "DeliveryTransport", "TerminalMedia", "CICU"]),
        // Asset inspection: show, fields, field, renditions, types, taxonomies, categories.
        .target(
            name: "AssetModule",
            dependencies: ["OCEQCore", "OCEQShell", "OCEQLanguage", "DeliveryKit", "TerminalMedia"]),
        // Downloads: `download` (native files, renditions, thumbnails; one item or a selection).
        .target(
            name: "DownloadModule",
            dependencies: ["OCEQCore", "OCEQShell", "OCEQLanguage", "DeliveryKit", "DeliveryTransport"]),

        // `mirror`: a channel (or a selection) to an OCM export on disk, in the 2023 layout.
        .target(
            name: "MirrorModule",
            dependencies: ["OCEQCore", "OCEQShell", "OCEQLanguage", "DeliveryKit", "DeliveryTransport"]),

        // `CommandLine.arguments` for the executable from argv as glibc passes it to initialisers, in place of
        // the Swift runtime's, which read /proc/self/maps at every start (CArguments.c has the figures).
        .target(name: "CArguments"),

        // What the executable composes, kept testable: `oceq serve`'s command line and the opener that
        // serves a local export in-process for the shell.
        .target(name: "OCEQApp", dependencies: ["OCEQCore", "OCEQShell", "ChannelServer", "DeliveryKit", "CSystem"]),
        // The thin executable, the composition root: the module list, `serve`, the local-export opener.
        // Linked by the toolchain's lld with packed relative relocations (DT_RELR; glibc 2.36 and later): the
        // executable stays position-independent (address randomisation kept: `-no-pie` would save about 220
        // page faults a start, and was measured and declined, README "Start-up"), and its 78k relative
        // relocations are a 15 KB bitmap instead of 1.9 MB of RELA entries that every start read. The
        // functions and data a start uses come first, side by side, in the order of Linker/oceq.order
        // (Scripts/make-symbol-order writes it; a name it lists that no longer exists is skipped). C++'s
        // runtime (which the Swift runtime needs) is linked statically through Linker/static-libstdc++ (see
        // the script there). `--no-export-dynamic` undoes the driver's `-export-dynamic`: the executable's own
        // public symbols (8,146) stay out of its dynamic symbol table, which the loader searched first for
        // every symbol of every library (README "Start-up").
        .executableTarget(
            name: "oceq",
            dependencies: [
                "CSystem", "CArguments", "OCEQShell", "OCEQApp", "BlogModule", "AssetModule", "DownloadModule",
                "MirrorModule",
            ],
            linkerSettings: [
                .unsafeFlags([
                    "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                    "-Xlinker", "--symbol-ordering-file=" + Context.packageDirectory + "/Linker/oceq.order",
                    "-Xlinker", "--no-warn-symbol-ordering", "-Xlinker", "--no-export-dynamic",
                    "-L", Context.packageDirectory + "/Linker/static-libstdc++",
                ])
            ]),

        // `swift package oceq-lint [PATH...]`: checks .oceq files by building and running `oceq lint`.
        .plugin(
            name: "OCEQLint",
            capability: .command(
                intent: .custom(verb: "oceq-lint", description: "check .oceq scripts without a channel"))),

        // The download benchmark's client (Scripts/bench-download runs it beside curl).
        .executableTarget(name: "oceq-bench-download", dependencies: ["OCEQCore", "DeliveryKit", "DeliveryTransport"]),

        // Helpers shared by the test targets (golden files, temporary folders, child processes, the oceq binary).
        .target(name: "OCEQTestSupport", dependencies: ["OCEQTestHome", "CSystem"], path: "Tests/OCEQTestSupport"),
        // Before main, every test process points HOME and the XDG folders at a fresh folder of its own.
        .target(name: "OCEQTestHome", path: "Tests/OCEQTestHome"),

        // OCEQCore alone: the JSON parser beside Foundation's on every fixture (the reason it stays).
        .testTarget(name: "OCEQCoreTests", dependencies: ["OCEQCore", "OCEQTestSupport"]),
        .testTarget(
            name: "DeliveryKitTests",
            dependencies: ["OCEQCore", "DeliveryKit", "DeliveryTransport", "OCEQTestSupport"],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "OCEQLanguageTests", dependencies: ["OCEQCore", "OCEQLanguage", "DeliveryKit", "OCEQTestSupport"],
            exclude: ["Golden"]),
        .testTarget(
            name: "ChannelServerTests",
            dependencies: ["OCEQCore", "ChannelServer", "DeliveryKit", "CSystem", "OCEQTestSupport"],
            resources: [.copy("Fixtures")]),
        // DeliveryTransport over libcurl against an in-process `oceq serve` of the bundled sample channel.
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["OCEQCore", "DeliveryKit", "DeliveryTransport", "ChannelServer", "OCEQTestSupport"],
            // A self-signed certificate for 127.0.0.1 (test only) that the https test server presents.
            exclude: ["Fixtures"]),
        .testTarget(
            name: "OCEQShellTests",
            dependencies: [
                "OCEQCore", "OCEQShell", "OCEQApp", "DeliveryTransport", "oceq-editline-demo", "OCEQTestSupport",
            ],
            exclude: ["Golden", "Support/drive_repl.py"]),
        .testTarget(
            name: "BlogModuleTests",
            dependencies: ["OCEQCore", "BlogModule", "OCEQShell", "OCEQApp", "OCEQTestSupport", "TerminalMedia"],
            exclude: ["Golden"]),
        .testTarget(
            name: "TerminalMediaTests", dependencies: ["OCEQCore", "TerminalMedia", "OCEQTestSupport"],
            exclude: ["Golden"]),
        .testTarget(
            name: "AssetModuleTests",
            dependencies: [
                "OCEQCore", "AssetModule", "OCEQShell", "OCEQApp", "DeliveryKit", "DeliveryTransport",
                "OCEQTestSupport",
            ],
            exclude: ["Golden"]),
        .testTarget(
            name: "DownloadModuleTests",
            dependencies: [
                "OCEQCore", "DownloadModule", "OCEQShell", "DeliveryKit", "DeliveryTransport", "ChannelServer",
                "OCEQTestSupport",
            ],
            exclude: ["Golden"]),
        .testTarget(
            name: "MirrorModuleTests",
            dependencies: [
                "OCEQCore", "MirrorModule", "OCEQShell", "OCEQApp", "ChannelServer", "DeliveryKit", "DeliveryTransport",
                "OCEQTestSupport",
            ]),
        // `explain` of every command of the executable's modules, against the in-process sample channel.
        .testTarget(
            name: "ExplainTests",
            dependencies: [
                "OCEQCore", "OCEQShell", "OCEQApp", "BlogModule", "AssetModule", "DownloadModule", "MirrorModule",
                "DeliveryKit", "DeliveryTransport", "OCEQTestSupport",
            ]),
        // `oceq serve`'s command line and the in-process opener.
        .testTarget(
            name: "OCEQAppTests", dependencies: ["OCEQCore", "OCEQApp", "OCEQShell", "ChannelServer", "CArguments"]),
    ]
)

// Every Swift target of the executable reaches a concrete type's metadata through its accessor function instead
// of by demangling its mangled name at first use: the runtime then neither demangles it nor searches the
// binary's protocol conformances for the requirements of its generic arguments (a search of every record, one
// per pair of type and protocol, about 0.3 M instructions each). Callgrind, one-shot `list ... --format json`
// against `oceq serve`: README, "Start-up".
let executableSwiftTargets: Set<String> = [
    "OCEQCore", "DeliveryKit", "DeliveryTransport", "ChannelServer", "OCEQLanguage", "TerminalMedia", "OCEQShell",
    "BlogModule", "AssetModule", "DownloadModule", "MirrorModule", "OCEQApp", "oceq",
]
for target in package.targets where executableSwiftTargets.contains(target.name) {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"])
        ]
}
