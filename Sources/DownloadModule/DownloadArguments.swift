// The arguments of `download TARGET [native | rendition NAME [format F] | thumbnail] [to DIR]
// [--concurrency N] [--force]`, read from the generic command statement: the words may come in
// any order after TARGET; NAME, F, DIR and N may be words, quoted strings or references.

import FoundationEssentials
import OCEQCore
import OCEQLanguage
import OCEQShell

/// What a `download` statement asks for.
struct DownloadArguments {
    /// The items: an id, `@n`, `$var`, `slug:S` or a parenthesised select.
    var target: CommandArgument
    /// Native, rendition or thumbnail.
    var kind: DownloadKind = .native
    /// Where the rendition's NAME and the format's F were written, for an asset that lacks them.
    var renditionSpan: SourceSpan?
    var formatSpan: SourceSpan?
    /// The target folder as written (for messages) and as a path.
    var folderText = "."
    var folder = "."
    /// `--concurrency N`: files at a time.
    var concurrency = 8
    /// `--force`: download again even what is complete.
    var force = false

    /// The most files at a time.
    static let maximumConcurrency = 64

    /// Reads `command`'s arguments; usage errors point at the offending word.
    @MainActor
    init(_ command: CommandStatement, usage: String, in session: Session) throws(ShellError) {
        let arguments = command.arguments
        guard let first = arguments.first else {
            throw .usage("download needs a target: \(usage)", span: .at(command.nameSpan.end))
        }
        target = first
        var index = 1
        var kindSpan: SourceSpan?
        var format: (text: String, span: SourceSpan)?
        func value(after word: CommandArgument, _ what: String) throws(ShellError) -> String {
            index += 1
            guard index < arguments.count, let text = try ItemLookup.text(arguments[index], in: session) else {
                throw .usage("\(Self.wordText(word) ?? "") needs \(what): \(usage)", span: .at(word.span.end))
            }
            return text
        }
        func setKind(_ kind: DownloadKind, at span: SourceSpan) throws(ShellError) {
            if kindSpan != nil {
                throw .usage("say native, rendition NAME or thumbnail once", span: span)
            }
            kindSpan = span
            self.kind = kind
        }
        while index < arguments.count {
            let argument = arguments[index]
            let word = Self.wordText(argument)
            switch word {
            case "native":
                try setKind(.native, at: argument.span)
            case "thumbnail":
                try setKind(.thumbnail, at: argument.span)
            case "rendition":
                let name = try value(after: argument, "a rendition name (Thumbnail, Small, Medium, Large, ...)")
                try setKind(.rendition(name: name, format: nil), at: argument.span)
                renditionSpan = arguments[index].span
            case "format":
                format = (try value(after: argument, "a format (jpg, webp, ...)"), argument.span)
                formatSpan = arguments[index].span
            case "to":
                folderText = try value(after: argument, "a folder")
                folder = Self.path(folderText)
            case "--force":
                force = true
            case "--concurrency":
                let text = try value(after: argument, "a number of files at a time")
                concurrency = try Self.concurrency(text, at: arguments[index].span)
            case let flag? where flag.hasPrefix("--concurrency="):
                concurrency = try Self.concurrency(String(flag.dropFirst("--concurrency=".count)), at: argument.span)
            case let flag? where flag.hasPrefix("--"):
                throw .usage("unknown option '\(flag)' (options: --concurrency N, --force)", span: argument.span)
            default:
                throw .usage("unexpected argument: \(usage)", span: argument.span)
            }
            index += 1
        }
        if let format {
            guard case .rendition(let name, _) = kind else {
                throw .usage("format goes with rendition NAME: \(usage)", span: format.span)
            }
            kind = .rendition(name: name, format: format.text)
        }
    }

    /// The text of a bare word argument.
    static func wordText(_ argument: CommandArgument) -> String? {
        if case .word(let word) = argument.kind { return word }
        return nil
    }

    /// A count of files at a time, 1 to `maximumConcurrency`.
    static func concurrency(_ text: String, at span: SourceSpan) throws(ShellError) -> Int {
        guard let number = Int(text), (1...maximumConcurrency).contains(number) else {
            throw .usage("--concurrency takes a number from 1 to \(maximumConcurrency), not '\(text)'", span: span)
        }
        return number
    }

    /// A folder as a path: `~` and `~/...` expanded; relative paths stay relative to the working folder.
    static func path(_ text: String) -> String {
        text.isEmpty ? "." : XDGPaths.expandingTilde(text)
    }
}
