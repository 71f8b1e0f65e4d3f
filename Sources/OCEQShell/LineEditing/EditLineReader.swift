import CEditLine
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Set by the SIGINT handler that `EditLineReader.readLine` installs while it waits for input.
private let interruptReceived = Atomic<Bool>(false)

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
/// - Ctrl-C discards the line and returns `.interrupted`; Ctrl-D on an empty line returns `.end`. Both print
///   a newline so that what follows starts on a fresh line.
/// - Prompts may be coloured: ANSI escape sequences are fenced with `EditLineReader.promptEscape` for
///   `EL_PROMPT_ESC` so they don't count in the prompt's width (a prompt already holding the fence character
///   is taken as fenced).
/// - History: the entries of `history` are loaded into libedit for arrows and Ctrl-R; `addHistory` adds to
///   both, though `History` alone decides what reaches the file (secrets stay in this session's memory).
///
/// Not `Sendable`: one loop owns it and calls it between commands, on one thread.
public final class EditLineReader: LineReader {
    /// The character that fences non-printing sequences in a prompt.
    public static let promptEscape: Character = "\u{1}"

    /// Candidates for the word before the cursor; `cursor` counts characters of `line`. See `CompletionAction`.
    public var completer: ((_ line: String, _ cursor: Int) -> [String])?
    /// Characters that end the word that completion replaces.
    public var wordDelimiters: Set<Character> = CompletionAction.defaultDelimiters
    /// The persistent history, if any.
    public let history: History?

    private let editLine: OpaquePointer
    private let editHistory: OpaquePointer
    private var promptBuffer: UnsafeMutablePointer<CChar>?

    /// Whether stdin is a terminal that libedit can drive: `isatty(0)` and `TERM` is not `dumb`.
    public static func isUsable() -> Bool {
        guard isatty(STDIN_FILENO) == 1 else { return false }
        if let term = getenv("TERM"), String(cString: term) == "dumb" { return false }
        return true
    }

    /// Starts libedit on stdin and stdout; nil when it cannot (no terminal description, for instance).
    /// `programName` scopes `~/.editrc` entries; `history` (already loaded) feeds arrows and Ctrl-R.
    public init?(programName: String = "oceq", history: History? = nil) {
        _ = setlocale(LC_CTYPE, "")
        guard let editLine = oceq_el_init(programName) else { return nil }
        guard let editHistory = history_init() else {
            el_end(editLine)
            return nil
        }
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
        _ = el_source(editLine, nil)
    }

    deinit {
        el_end(editLine)
        history_end(editHistory)
        free(promptBuffer)
    }

    private static func reader(of editLine: OpaquePointer) -> EditLineReader? {
        guard let data = oceq_el_get_clientdata(editLine) else { return nil }
        return Unmanaged<EditLineReader>.fromOpaque(data).takeUnretainedValue()
    }

    // MARK: - LineReader

    public func readLine(prompt: String) -> LineReadResult {
        free(promptBuffer)
        promptBuffer = strdup(EditLineReader.fencePrompt(prompt))

        // Our handler only records the signal; libedit's own, installed inside el_gets, restores the terminal,
        // calls ours, and leaves read() interrupted so that el_gets returns NULL.
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in interruptReceived.store(true, ordering: .relaxed) }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        var previous = sigaction()
        sigaction(SIGINT, &action, &previous)
        defer { sigaction(SIGINT, &previous, nil) }

        interruptReceived.store(false, ordering: .relaxed)
        var count: Int32 = 0
        let text = el_gets(editLine, &count)
        let code = errno
        if let text {
            var line = String(cString: text)
            while line.hasSuffix("\n") || line.hasSuffix("\r") { line.removeLast() }
            return .line(line)
        }
        oceq_el_stdout_write("\n")
        if interruptReceived.load(ordering: .relaxed) || (count < 0 && code == EINTR) { return .interrupted }
        return .end
    }

    public func addHistory(_ entry: String) {
        guard let entry = History.normalized(entry) else { return }
        _ = oceq_history_enter(editHistory, entry)
        history?.add(entry)
    }

    // MARK: - Prompt

    /// Fences each run of ANSI escape sequences (CSI `ESC [ ... final`, OSC `ESC ] ... BEL|ESC \`, and two-byte
    /// `ESC x`) in `promptEscape`. libedit drops a fenced run that ends the prompt, so a trailing run is moved
    /// before the last printing character. A prompt that already holds `promptEscape` is returned unchanged.
    public static func fencePrompt(_ prompt: String) -> String {
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
        guard let completer, let info = el_line(editLine)?.pointee, let buffer = info.buffer else {
            return UInt8(CC_REFRESH_BEEP)
        }
        let bytes = { (from: UnsafePointer<CChar>, to: UnsafePointer<CChar>?) -> String in
            guard let to, to > from else { return "" }
            return String(decoding: UnsafeRawBufferPointer(start: from, count: to - from), as: UTF8.self)
        }
        let beforeCursor = bytes(buffer, info.cursor)
        let line = bytes(buffer, info.lastchar)
        let candidates = completer(line, beforeCursor.count)
        switch CompletionAction.plan(beforeCursor: beforeCursor, candidates: candidates, delimiters: wordDelimiters) {
        case .beep:
            return UInt8(CC_REFRESH_BEEP)
        case .replace(let deleting, let text):
            if deleting > 0 { el_deletestr(editLine, Int32(deleting)) }
            guard el_insertstr(editLine, text) == 0 else { return UInt8(CC_REFRESH_BEEP) }
            return UInt8(CC_REFRESH)
        case .list(let shown):
            let width = Int(oceq_terminal_columns())
            let limit = 200
            var text = "\n" + CompletionAction.columns(Array(shown.prefix(limit)), width: width > 0 ? width : 80)
            if shown.count > limit { text += "(\(shown.count - limit) more)\n" }
            oceq_el_stdout_write(text)
            return UInt8(CC_REDISPLAY)
        }
    }
}
