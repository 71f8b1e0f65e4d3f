import CEditLine
import CSystem
import OCEQCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Set by the reader's Ctrl-C subscriber (see `Interrupts`) while a line is read.
private let interruptReceived = Atomic<Bool>(false)
/// The write end of the pipe the Ctrl-C subscriber and the SIGWINCH/SIGCONT handler write a byte to, waking
/// `readCharacter` whichever thread the signal was delivered to; -1 when no reader lives.
private let interruptPipeWriter = Atomic<Int32>(-1)

/// Set by the SIGWINCH handler: the terminal must be measured again.
private let resizeRequested = Atomic<Bool>(false)
/// Set by the SIGCONT handler: the line must be drawn again after a stop.
private let redrawRequested = Atomic<Bool>(false)

/// The handlers installed before the reader's (as bits of a plain `sa_handler`; 0 for none, default or
/// ignore), called after it: another part of the program keeps hearing its signals.
private let previousResizeHandler = Atomic<UInt>(0)
private let previousContinueHandler = Atomic<UInt>(0)

private typealias SignalHandler = @convention(c) (Int32) -> Void

/// The SIGWINCH and SIGCONT handler: async-signal-safe (atomic stores, one write, the chained handler). SIGINT is
/// not the reader's: the process has one SIGINT source (`Interrupts`), and the reader subscribes to it.
private func signalHandler(_ signal: Int32) {
    let previous: UInt
    switch signal {
    case SIGWINCH:
        resizeRequested.store(true, ordering: .relaxed)
        previous = previousResizeHandler.load(ordering: .relaxed)
    default:
        redrawRequested.store(true, ordering: .relaxed)
        previous = previousContinueHandler.load(ordering: .relaxed)
    }
    wakeReader()
    if previous != 0 { unsafeBitCast(previous, to: SignalHandler.self)(signal) }
}

/// Wakes `readCharacter`'s poll; async-signal-safe.
private func wakeReader() {
    let fd = interruptPipeWriter.load(ordering: .relaxed)
    if fd >= 0 {
        var byte: UInt8 = 1
        _ = write(fd, &byte, 1)
    }
}

/// Reads lines on a terminal with libedit (`histedit.h`, not the readline emulation).
///
/// Use it only when stdin is a terminal (`EditLineReader.isUsable()`: `isatty(0)` and `TERM` not `dumb`); the
/// caller picks a plain stdin reader otherwise, and never both on one stdin (libedit reads ahead, so mixing
/// the two loses input).
///
/// - Emacs key bindings, then the user's `~/.editrc` (entries may be scoped `oceq:bind ...`), read last so
///   that it can override anything set here.
/// - `setlocale(LC_CTYPE, "")` before libedit starts, so UTF-8 input is kept. Only `LC_CTYPE`: `LC_ALL`
///   would also change `LC_NUMERIC`, which C number formatting and parsing elsewhere in the process obey.
/// - Ctrl-R is bound to `em-inc-search-prev` (libedit has no Ctrl-R search by default); Tab to the completer.
/// - Ctrl-C (heard through `Interrupts`) discards the line and returns `.interrupted`; Ctrl-D on an empty line returns `.end`. Both print
///   a newline so that what follows starts on a fresh line. A Ctrl-D typed while no line was being edited (a
///   command running) ends input too; the terminal is in editing mode before the prompt is drawn.
/// - Prompts may be coloured: ANSI escape sequences are fenced with `EditLineReader.promptEscape` for
///   `EL_PROMPT_ESC` so they don't count in the prompt's width (a prompt already holding the fence character
///   is taken as fenced).
/// - History: the entries of `history` are loaded into libedit for arrows and Ctrl-R; `addHistory` adds to
///   both, though `History` alone decides what reaches the file (secrets stay in this session's memory).
///
/// Not `Sendable`: one thread owns it (see `LineInput`) and calls it between commands.
package final class EditLineReader: LineReader {
    /// The character that fences non-printing sequences in a prompt.
    package static let promptEscape: Character = "\u{1}"

    /// What Tab offers for the line, the cursor counting characters of `line`: the word before the cursor and
    /// its candidates (see `Completer`, `CompletionAction`).
    package var completer: ((_ line: String, _ cursor: Int) -> Completion)?
    /// The persistent history, if any.
    package let history: History?

    private let editLine: OpaquePointer
    private let editHistory: OpaquePointer
    private var promptBuffer: UnsafeMutablePointer<CChar>?
    /// The signals this reader handles, and the actions before ours, put back by `deinit`.
    private static let handledSignals = [SIGWINCH, SIGCONT]
    private var previousActions: [sigaction] = []
    /// The pipe Ctrl-C and the signals write to: read end, write end.
    private let interruptPipe: (reader: Int32, writer: Int32)

    /// Whether stdin is a terminal that libedit can drive: `isatty(0)` and `TERM` is not `dumb`.
    package static func isUsable() -> Bool {
        guard isatty(STDIN_FILENO) == 1 else { return false }
        if let term = getenv("TERM"), String(cString: term) == "dumb" { return false }
        return true
    }

    /// Why libedit cannot be used (it is opened at first use, through CSystem's loader); nil when it can.
    package static func libraryProblem() -> LibraryUnavailable? {
        guard oceq_editline() == nil else { return nil }
        return LibraryUnavailable(
            library: "libedit", debianPackage: "libedit2",
            reason: oceq_editline_error().map { String(cString: $0) } ?? "unknown")
    }

    /// Starts libedit on stdin and stdout; nil when it cannot (no terminal description, or libedit is missing).
    /// `programName` scopes `~/.editrc` entries; `history` (already loaded) feeds arrows and Ctrl-R.
    package init?(programName: String = "oceq", history: History? = nil) {
        _ = setlocale(LC_CTYPE, "")
        guard let editLine = oceq_el_init(programName) else { return nil }
        guard let editHistory = oceq_history_init() else {
            oceq_el_end(editLine)
            return nil
        }
        var fds: [Int32] = [-1, -1]
        guard oceq_pipe_nonblocking(&fds) == 0 else {
            oceq_el_end(editLine)
            oceq_history_end(editHistory)
            return nil
        }
        self.interruptPipe = (fds[0], fds[1])
        self.editLine = editLine
        self.editHistory = editHistory
        self.history = history

        _ = oceq_history_set_size(editHistory, Int32(clamping: history?.capacity ?? History.defaultCapacity))
        _ = oceq_history_set_unique(editHistory, 1)
        for entry in history?.entries ?? [] { _ = oceq_history_enter(editHistory, entry) }

        _ = oceq_el_set_clientdata(editLine, Unmanaged.passUnretained(self).toOpaque())
        _ = oceq_el_set_signal(editLine, 1)
        // Choosing the editor reloads the default keymap, so bindings come after it.
        _ = oceq_el_set_editor(editLine, "emacs")
        _ = oceq_el_set_prompt_esc(
            editLine,
            { editLine in
                guard let editLine, let reader = EditLineReader.reader(of: editLine) else { return nil }
                return reader.promptBuffer
            }, CChar(UInt8(ascii: "\u{1}")))
        _ = oceq_el_set_history(editLine, editHistory)
        _ = oceq_el_add_function(
            editLine, "oceq-complete", "Complete the word before the cursor",
            { editLine, _ in
                guard let editLine, let reader = EditLineReader.reader(of: editLine) else { return UInt8(CC_ERROR) }
                return reader.complete()
            })
        _ = oceq_el_bind(editLine, "^I", "oceq-complete")
        _ = oceq_el_bind(editLine, "^R", "em-inc-search-prev")
        _ = oceq_el_set_getcfn(
            editLine,
            { editLine, character in
                EditLineReader.readCharacter(editLine, character)
            })
        _ = oceq_el_source(editLine, nil)

        // SIGWINCH and SIGCONT ask for a redraw; Ctrl-C is heard through `Interrupts` while a line is read (see
        // `readLine`) and ends the line. libedit's own handlers (EL_SIGNAL) run first during el_gets, restore the
        // terminal, then pass the signal on to these and to the process's SIGINT handler.
        interruptPipeWriter.store(interruptPipe.writer, ordering: .relaxed)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = signalHandler
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        for signal in EditLineReader.handledSignals {
            var previous = sigaction()
            sigaction(signal, &action, &previous)
            previousActions.append(previous)
            // Chain a plain handler (not SIG_DFL, SIG_IGN, an SA_SIGINFO one, or ours from another reader).
            var bits: UInt = 0
            if previous.sa_flags & SA_SIGINFO == 0, let handler = previous.__sigaction_handler.sa_handler {
                bits = unsafeBitCast(handler, to: UInt.self)
                if bits == 1 || bits == unsafeBitCast(signalHandler as SignalHandler, to: UInt.self) { bits = 0 }
            }
            EditLineReader.setPreviousHandler(bits, of: signal)
        }
        // A parent may have blocked signals (Foundation's Process blocks nearly all in its children); Ctrl-C,
        // resizing and job control must reach this thread.
        var wanted = sigset_t()
        sigemptyset(&wanted)
        for signal in [SIGINT, SIGWINCH, SIGCONT, SIGTSTP] { sigaddset(&wanted, signal) }
        pthread_sigmask(SIG_UNBLOCK, &wanted, nil)
    }

    deinit {
        for (signal, previous) in zip(EditLineReader.handledSignals, previousActions) {
            var previous = previous
            sigaction(signal, &previous, nil)
            EditLineReader.setPreviousHandler(0, of: signal)
        }
        interruptPipeWriter.store(-1, ordering: .relaxed)
        close(interruptPipe.reader)
        close(interruptPipe.writer)
        oceq_el_end(editLine)
        oceq_history_end(editHistory)
        free(promptBuffer)
    }

    private static func setPreviousHandler(_ bits: UInt, of signal: Int32) {
        switch signal {
        case SIGWINCH: previousResizeHandler.store(bits, ordering: .relaxed)
        default: previousContinueHandler.store(bits, ordering: .relaxed)
        }
    }

    /// Reads one character for libedit (EL_GETCFN) from stdin, decoding it in the locale's encoding.
    ///
    /// libedit's own reader retries a read that a signal interrupted once, so a Ctrl-C would wait for the next
    /// key; and in a process with several threads the signal may interrupt another thread's call, not this
    /// read. So this one waits with poll() on stdin and the pipe Ctrl-C writes to, and returns -1 (EINTR)
    /// as soon as the interrupt flag is up, which ends `el_gets` with NULL. After SIGWINCH it measures the terminal,
    /// after SIGCONT it also redraws the line, and it reads on (libedit's handlers are one-shot, and only its
    /// own reader re-arms them).
    private static func readCharacter(
        _ editLine: OpaquePointer?, _ character: UnsafeMutablePointer<wchar_t>?
    ) -> Int32 {
        guard let character, let editLine, let reader = reader(of: editLine) else { return -1 }
        var state = mbstate_t()
        var byte: CChar = 0
        var fds = [
            pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
            pollfd(fd: reader.interruptPipe.reader, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            if interruptReceived.load(ordering: .relaxed) {
                reader.drainInterruptPipe()
                character.pointee = 0
                errno = EINTR
                return -1
            }
            let ready = poll(&fds, 2, -1)
            if ready < 0 {
                guard errno == EINTR else { return -1 }
                continue
            }
            if fds[1].revents != 0 { reader.drainInterruptPipe() }
            if resizeRequested.exchange(false, ordering: .relaxed) { oceq_el_resize(editLine) }
            if redrawRequested.exchange(false, ordering: .relaxed) {
                oceq_el_resize(editLine)
                oceq_el_stdout_write("\r")
                _ = oceq_el_refresh(editLine)
            }
            guard fds[0].revents != 0 else { continue }
            let count = read(STDIN_FILENO, &byte, 1)
            if count == 0 {
                character.pointee = 0
                return 0
            }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return -1
            }
            switch mbrtowc(character, &byte, 1, &state) {
            case -2: continue  // an incomplete sequence: read on
            case -1: state = mbstate_t()  // an invalid byte: dropped
            default: return 1
            }
        }
    }

    private func drainInterruptPipe() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(interruptPipe.reader, &buffer, buffer.count) > 0 {}
    }

    private static func reader(of editLine: OpaquePointer) -> EditLineReader? {
        guard let data = oceq_el_get_clientdata(editLine) else { return nil }
        return Unmanaged<EditLineReader>.fromOpaque(data).takeUnretainedValue()
    }

    // MARK: - LineReader

    package func readLine(prompt: String) -> LineReadResult {
        free(promptBuffer)
        promptBuffer = strdup(EditLineReader.fencePrompt(prompt))

        interruptReceived.store(false, ordering: .relaxed)
        let subscription = Interrupts.subscribe {
            interruptReceived.store(true, ordering: .relaxed)
            wakeReader()
        }
        defer { subscription.cancel() }
        resizeRequested.store(false, ordering: .relaxed)  // el_gets measures the terminal anyway
        redrawRequested.store(false, ordering: .relaxed)
        // Between lines the terminal is in canonical mode, where Ctrl-D on an empty line is an end of file that
        // Linux queues as a NUL byte: once raw mode is on it would be read as that byte (Ctrl-@, after which
        // libedit takes the next key literally), so the REPL would neither end nor end on a second Ctrl-D.
        if oceq_take_pending_eof(STDIN_FILENO) == 1 { return .end }
        // Raw mode before the prompt is drawn: el_gets turns it on only when it reads the first key, and a key
        // typed as soon as the prompt shows would meet the canonical terminal.
        _ = oceq_el_prep_term(editLine, 1)
        var count: Int32 = 0
        let text = oceq_el_gets(editLine, &count)
        let code = errno
        let interrupted = interruptReceived.exchange(false, ordering: .relaxed)
        if let text {
            var line = String(cString: text)
            while line.hasSuffix("\n") || line.hasSuffix("\r") { line.removeLast() }
            return .line(line)
        }
        oceq_el_stdout_write("\n")
        if interrupted || (count < 0 && code == EINTR) { return .interrupted }
        return .end
    }

    package func setCompleter(_ completer: Completer?) {
        self.completer = completer.map { completer in { completer.complete(line: $0, cursor: $1) } }
    }

    package func addHistory(_ entry: String) {
        guard let entry = History.normalized(entry) else { return }
        _ = oceq_history_enter(editHistory, entry)
        history?.add(entry)
    }

    // MARK: - Prompt

    /// Fences each run of ANSI escape sequences (CSI `ESC [ ... final`, OSC `ESC ] ... BEL|ESC \`, and two-byte
    /// `ESC x`) in `promptEscape`. libedit drops a fenced run that ends the prompt, so a trailing run is moved
    /// before the last printing character. A prompt that already holds `promptEscape` is returned unchanged.
    package static func fencePrompt(_ prompt: String) -> String {
        let fence: Unicode.Scalar = "\u{1}"
        guard !prompt.unicodeScalars.contains(fence), prompt.unicodeScalars.contains("\u{1B}") else { return prompt }
        let scalars = Array(prompt.unicodeScalars)
        // Split into visible scalars and escape runs.
        enum Piece {
            case visible(Unicode.Scalar)
            case escape([Unicode.Scalar])
        }
        var pieces: [Piece] = []
        var index = 0
        while index < scalars.count {
            guard scalars[index] == "\u{1B}" else {
                pieces.append(.visible(scalars[index]))
                index += 1
                continue
            }
            let start = index
            index += 1
            if index < scalars.count, scalars[index] == "[" {
                index += 1
                while index < scalars.count, !(0x40...0x7E).contains(scalars[index].value) { index += 1 }
                index = min(index + 1, scalars.count)
            } else if index < scalars.count, scalars[index] == "]" {
                while index < scalars.count, scalars[index] != "\u{7}",
                    !(scalars[index] == "\\" && scalars[index - 1] == "\u{1B}")
                {
                    index += 1
                }
                index = min(index + 1, scalars.count)
            } else {
                index = min(index + 1, scalars.count)
            }
            let sequence = Array(scalars[start..<index])
            if case .escape(let before)? = pieces.last {
                pieces[pieces.count - 1] = .escape(before + sequence)
            } else {
                pieces.append(.escape(sequence))
            }
        }
        if pieces.count >= 2, case .escape = pieces[pieces.count - 1], case .visible = pieces[pieces.count - 2] {
            pieces.swapAt(pieces.count - 1, pieces.count - 2)
        }
        var out = String.UnicodeScalarView()
        for piece in pieces {
            switch piece {
            case .visible(let scalar): out.append(scalar)
            case .escape(let sequence):
                out.append(fence)
                for scalar in sequence { out.append(scalar) }
                out.append(fence)
            }
        }
        return String(out)
    }

    // MARK: - Completion

    /// The Tab function: asks `completer` about the line and acts on the answer (see `CompletionAction`).
    private func complete() -> UInt8 {
        guard let completer, let info = oceq_el_line(editLine)?.pointee, let buffer = info.buffer else {
            return UInt8(CC_REFRESH_BEEP)
        }
        let bytes = { (from: UnsafePointer<CChar>, to: UnsafePointer<CChar>?) -> String in
            guard let to, to > from else { return "" }
            return String(decoding: UnsafeRawBufferPointer(start: from, count: to - from), as: UTF8.self)
        }
        let beforeCursor = bytes(buffer, info.cursor)
        let line = bytes(buffer, info.lastchar)
        var completion = completer(line, beforeCursor.count)
        // The word must be what stands before the cursor, else nothing is replaced.
        if !beforeCursor.hasSuffix(completion.word) { completion = .none }
        let action = CompletionAction.plan(completion)
        switch action {
        case .beep:
            return UInt8(CC_REFRESH_BEEP)
        case .replace(let deleting, let text):
            if deleting > 0 { oceq_el_deletestr(editLine, Int32(deleting)) }
            guard oceq_el_insertstr(editLine, text) == 0 else { return UInt8(CC_REFRESH_BEEP) }
            return UInt8(CC_REFRESH)
        case .list(let shown), .waiting(let shown):
            let width = Int(oceq_terminal_columns())
            let limit = 200
            var text = "\n" + CompletionAction.columns(Array(shown.prefix(limit)), width: width > 0 ? width : 80)
            if shown.count > limit { text += "(\(shown.count - limit) more)\n" }
            if case .waiting = action { text += CompletionAction.waitingNote + "\n" }
            oceq_el_stdout_write(text)
            return UInt8(CC_REDISPLAY)
        }
    }
}
