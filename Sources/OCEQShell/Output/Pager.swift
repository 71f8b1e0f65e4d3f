// The pager: on a terminal, output taller than the screen goes through `$PAGER` (default
// `less -FRX`, which quits at once for short output and keeps colours), so no listing scrolls
// away or floods the terminal. Off for pipes, with `set pager off`, and when the pager cannot start.

import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Shows long output through a pager.
package enum Pager {
    /// `$PAGER` when set and not empty, else `less -FRX`.
    package static func defaultCommand(environment: [String: String] = ProcessEnvironment.current()) -> String {
        if let pager = environment["PAGER"], !pager.trimmedSpaces.isEmpty { return pager }
        return "less -FRX"
    }

    /// Renders `result` to the session's output, through the pager when it is on and the text is
    /// taller than the screen.
    @MainActor
    static func render(_ result: CommandResult, in session: Session) {
        let output = session.output
        // Sixel, kitty and iTerm2 images cannot go through a pager: such output is written as it is.
        guard let command = session.settings.pager, output.isTerminal, !hasGraphics(result) else {
            session.settings.renderer.render(result, to: output)
            return
        }
        let buffer = MemoryOutput(isTerminal: true, width: output.width)
        session.settings.renderer.render(result, to: buffer)
        let lines = buffer.text.reduce(0) { $0 + ($1 == "\n" ? 1 : 0) }
        guard lines >= output.height - 1 else {
            output.write(buffer.text)
            return
        }
        if !show(buffer.text, command: command) { output.write(buffer.text) }
    }

    /// Whether `result` is text (or a screen) carrying a sixel, kitty or iTerm2 image.
    static func hasGraphics(_ result: CommandResult) -> Bool {
        let text: String
        switch result {
        case .text(let written), .screen(let written, _): text = written
        default: return false
        }
        return text.containsBytes(of: "\u{1B}P") || text.containsBytes(of: "\u{1B}_G")
            || text.containsBytes(of: "\u{1B}]1337;")
    }

    /// Runs `command` with `text` on its stdin and waits for it; false if it could not start.
    ///
    /// `popen` keeps the pager in oceq's process group, so it owns the terminal as a foreground
    /// job (Foundation's `Process` starts a new group, and a pager there stops on SIGTTIN).
    package static func show(_ text: String, command: String) -> Bool {
        // A pager quit early (q in less) closes the pipe; the rest is dropped, not an error.
        signal(SIGPIPE, SIG_IGN)
        // Ctrl-C in the pager (less quits its search with it) reaches oceq too: it is the pager's alone.
        let quiet = Interrupts.subscribe {}
        defer { quiet.cancel() }
        guard let pipe = popen(command, "w") else { return false }
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { fwrite($0.baseAddress, 1, $0.count, pipe) }
        pclose(pipe)
        return true
    }
}
