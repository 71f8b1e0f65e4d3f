import OCEQShell

/// Channel mirroring (issue 7, part 4): `mirror DIR [(list ...)]` writes the channel, or a
/// selection, as an OCM content export in the 2023 layout that `oceq serve` reads.
package enum MirrorModule {
    /// The module value the executable lists.
    package static let module = Module(name: "mirror", commands: [MirrorCommand.self])
}
