// How images reach the terminal: `--images` and `set images` pick a mode; `auto` asks chafa's
// terminal database (TERM, COLORTERM, TERM_PROGRAM, KITTY_WINDOW_ID, ...) for the best protocol
// and colour depth, as chafa's own tool does. Nothing is drawn when output is not a terminal.

import CChafa

/// `--images` / `set images`.
public enum ImageMode: String, Sendable, CaseIterable {
    case auto, never, symbols, sixel, kitty, iterm
}

/// How one image is drawn: a protocol and, for symbols, a colour depth.
public struct ImageStyle: Sendable, Equatable {
    /// The graphics protocols chafa can write.
    public enum Drawing: Sendable, Equatable {
        /// Unicode block symbols in colour: works everywhere.
        case symbols
        case sixel, kitty, iterm
    }

    /// Colours a symbols drawing uses.
    public enum Colours: Sendable, Equatable {
        case trueColour, indexed256, indexed16
    }

    public var drawing: Drawing
    public var colours: Colours

    /// A style.
    public init(_ drawing: Drawing, colours: Colours) {
        self.drawing = drawing
        self.colours = colours
    }

    /// The style for `mode` on a stream that `isTerminal` or not, in `environment`; nil when
    /// nothing is to be drawn (mode `never`, or not a terminal).
    public static func resolve(_ mode: ImageMode, isTerminal: Bool, environment: [String: String]) -> ImageStyle? {
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
    public static func detect(_ environment: [String: String]) -> ImageStyle {
        var strings = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") }
        strings.append(nil)
        defer { for pointer in strings { free(pointer) } }
        var pixel: Int32 = 0
        var canvas: Int32 = 0
        strings.withUnsafeMutableBufferPointer { oceq_chafa_detect($0.baseAddress, &pixel, &canvas) }
        let drawing: Drawing
        switch UInt32(pixel) {
        case CHAFA_PIXEL_MODE_KITTY.rawValue: drawing = .kitty
        case CHAFA_PIXEL_MODE_ITERM2.rawValue: drawing = .iterm
        case CHAFA_PIXEL_MODE_SIXELS.rawValue: drawing = .sixel
        default: drawing = .symbols
        }
        let colours: Colours
        switch UInt32(canvas) {
        case CHAFA_CANVAS_MODE_TRUECOLOR.rawValue: colours = .trueColour
        case CHAFA_CANVAS_MODE_INDEXED_256.rawValue: colours = .indexed256
        default: colours = .indexed16
        }
        return ImageStyle(drawing, colours: colours)
    }

    var pixelMode: Int32 {
        switch drawing {
        case .symbols: Int32(CHAFA_PIXEL_MODE_SYMBOLS.rawValue)
        case .sixel: Int32(CHAFA_PIXEL_MODE_SIXELS.rawValue)
        case .kitty: Int32(CHAFA_PIXEL_MODE_KITTY.rawValue)
        case .iterm: Int32(CHAFA_PIXEL_MODE_ITERM2.rawValue)
        }
    }

    var canvasMode: Int32 {
        switch colours {
        case .trueColour: Int32(CHAFA_CANVAS_MODE_TRUECOLOR.rawValue)
        case .indexed256: Int32(CHAFA_CANVAS_MODE_INDEXED_256.rawValue)
        case .indexed16: Int32(CHAFA_CANVAS_MODE_INDEXED_16.rawValue)
        }
    }
}
