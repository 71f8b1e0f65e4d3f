import OCEQCore

/// What `oceq serve` (or an in-process server for the REPL) serves, and how: the configuration
/// `ChannelService.load` and the HTTP server read. The command line that fills it is the
/// executable's (`OCEQApp`'s `ServeCommandLine`).
public struct ServeOptions: Sendable, Equatable {
    /// Export folders and zips; several merge into one channel.
    public var paths: [String] = []
    /// The address to bind.
    public var host = "127.0.0.1"
    /// The port to listen on (0: any free one).
    public var port = 8411
    /// The channel token clients must send (nil: `channel.json`, else generated).
    public var token: Secret?
    /// The bearer token of a secure channel.
    public var bearer: Secret?
    /// Refuse to start when any item could not be read.
    public var strict = false
    /// Worker threads.
    public var threads = 4
    /// Where zips are extracted and indexes cached (nil: `XDGPaths`' cache folder).
    public var cacheDirectory: String?
    /// No access log.
    public var quiet = false
    /// Fault injection (off unless asked): `--faults SPEC` or `OCEQ_SERVE_FAULTS`.
    public var faults: FaultSpec?
    /// The seed of the fault draws.
    public var faultSeed: UInt64 = 1
    /// MiB of finished JSON answers kept for repeated requests (`--response-cache`; 0 is off).
    public var responseCacheMiB = 32
    /// Origins browser apps may call from (`--cors`, repeatable; `*` for any, refused with a bearer).
    public var corsOrigins: [String] = []
    /// Connection caps and the header deadline (`--max-connections`, `--max-connections-per-client`,
    /// `--header-timeout`).
    public var connections = ConnectionLimits()
    /// What an export zip may expand to (`--zip-max-mib`, `--zip-max-entries`, `--zip-max-ratio`).
    public var zipLimits = ZipLimits()
    /// The largest item file read, in bytes (`--item-max-mib`).
    public var maximumItemFileBytes = ExportLoadOptions.defaultMaximumItemFileBytes
    /// The largest image rendered, in pixels (`--max-image-pixels`); larger ones get no renditions.
    public var maximumImagePixels = VipsRenditions.defaultMaximumPixels
    /// Renditions made at once (`--render-threads`); their requests run on threads of their own.
    public var renderThreads = 2

    /// The defaults.
    public init() {}
}
