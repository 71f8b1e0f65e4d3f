// How images reach the terminal: `--images` and `set images` pick a mode; `auto` asks chafa's
// terminal database (TERM, COLORTERM, TERM_PROGRAM, KITTY_WINDOW_ID, ...) for the best protocol
// and colour depth, as chafa's own tool does. Nothing is drawn when output is not a terminal.

import CChafa

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// `--images` / `set images`.
package enum ImageMode: String, Sendable, CaseIterable {
    case auto, never, symbols, sixel, kitty, iterm
}

/// How one image is drawn: a protocol and, for symbols, a colour depth.
package struct ImageStyle: Sendable, Equatable {
    /// The graphics protocols chafa can write.
    package enum Drawing: Sendable, Equatable {
        /// Unicode block symbols in colour: works everywhere.
        case symbols
        case sixel, kitty, iterm
    }

    /// Colours a symbols drawing uses.
    package enum Colours: Sendable, Equatable {
        case trueColour, indexed256, indexed16
    }

    package var drawing: Drawing
    package var colours: Colours

    /// A style.
    package init(_ drawing: Drawing, colours: Colours) {
        self.drawing = drawing
        self.colours = colours
    }

    /// The style for `mode` on a stream that `isTerminal` or not, in `environment`; nil when
    /// nothing is to be drawn (mode `never`, or not a terminal).
    package static func resolve(_ mode: ImageMode, isTerminal: Bool, environment: [String: String]) -> ImageStyle? {
        guard isTerminal, mode != .never else { return nil }
        let detected = detect(environment)
        switch mode {
        case .never: return nil
        case .auto: return detected
        case .symbols: return ImageStyle(.symbols, colours: detected.colours)
        case .sixel: return ImageStyle(.sixel, colours: detected.colours)
        case .kitty: return ImageStyle(.kitty, colours: detected.colours)
        case .iterm: return ImageStyle(.iterm, colours: detected.colours)
        }
    }

    /// What chafa's terminal database makes of `environment`.
    package static func detect(_ environment: [String: String]) -> ImageStyle {
        var strings = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") }
        strings.append(nil)
        defer { for pointer in strings { free(pointer) } }
        var pixel = OCEQ_CHAFA_SYMBOLS
        var canvas = OCEQ_CHAFA_INDEXED_16
        strings.withUnsafeMutableBufferPointer { oceq_chafa_detect($0.baseAddress, &pixel, &canvas) }
        let drawing: Drawing
        switch pixel {
        case OCEQ_CHAFA_KITTY: drawing = .kitty
        case OCEQ_CHAFA_ITERM2: drawing = .iterm
        case OCEQ_CHAFA_SIXELS: drawing = .sixel
        default: drawing = .symbols
        }
        let colours: Colours
        switch canvas {
        case OCEQ_CHAFA_TRUECOLOR: colours = .trueColour
        case OCEQ_CHAFA_INDEXED_256: colours = .indexed256
        default: colours = .indexed16
        }
        return ImageStyle(drawing, colours: colours)
    }

    var pixelMode: OceqChafaPixels {
        switch drawing {
        case .symbols: OCEQ_CHAFA_SYMBOLS
        case .sixel: OCEQ_CHAFA_SIXELS
        case .kitty: OCEQ_CHAFA_KITTY
        case .iterm: OCEQ_CHAFA_ITERM2
        }
    }

    var canvasMode: OceqChafaColours {
        switch colours {
        case .trueColour: OCEQ_CHAFA_TRUECOLOR
        case .indexed256: OCEQ_CHAFA_INDEXED_256
        case .indexed16: OCEQ_CHAFA_INDEXED_16
        }
    }
}
