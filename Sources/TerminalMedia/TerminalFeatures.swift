// What a terminal is known to support beyond colour, from its environment (there is no query that
// answers without a round trip): OSC 8 hyperlinks. OCEQ_HYPERLINKS=1 or 0 overrides the guess.

/// Terminal capabilities read from the environment.
package enum TerminalFeatures {
    /// Whether the terminal described by `environment` shows OSC 8 hyperlinks.
    package static func supportsHyperlinks(_ environment: [String: String]) -> Bool {
        if let forced = environment["OCEQ_HYPERLINKS"] { return forced == "1" }
        let term = environment["TERM"] ?? ""
        if term == "dumb" || term.hasPrefix("screen") || term.hasPrefix("linux") { return false }
        let programs = ["iTerm.app", "WezTerm", "vscode", "ghostty", "Hyper", "tabby", "rio"]
        if let program = environment["TERM_PROGRAM"], programs.contains(program) { return true }
        if environment["KITTY_WINDOW_ID"] != nil || environment["WT_SESSION"] != nil
            || environment["KONSOLE_VERSION"] != nil || environment["WEZTERM_EXECUTABLE"] != nil
        {
            return true
        }
        if let vte = environment["VTE_VERSION"].flatMap(Int.init), vte >= 5000 { return true }
        return ["xterm-kitty", "foot", "alacritty", "wezterm", "xterm-ghostty"].contains { term.hasPrefix($0) }
    }
}
