// An image for the terminal: decoded by libvips straight to the size it will be drawn at
// (`vips_thumbnail` shrinks on load, so a huge JPEG is never decoded whole), then drawn by chafa
// as symbols, sixels, or a kitty or iTerm2 image. A terminal cell is taken as 8 × 16 pixels, so
// the drawing keeps the picture's proportions.

import CChafa
import CVips

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An image that could not be decoded.
package struct ImageError: Error, Sendable, CustomStringConvertible {
    /// One line saying why.
    package var description: String

    /// An error saying `description` (made one clean line).
    package init(_ description: String) {
        let line = description.split(whereSeparator: \.isNewline).first.map(String.init) ?? "unknown error"
        self.description =
            TerminalCells.clean(line).trimmingSpaces().isEmpty ? "unknown error" : TerminalCells.clean(line)
    }
}

/// Decoded RGBA pixels.
package struct TerminalImage: Sendable {
    package let width: Int
    package let height: Int
    /// 4 bytes a pixel, rows packed.
    package let pixels: [UInt8]

    static let cellWidth = 8
    static let cellHeight = 16
    static let started: Bool = oceq_vips_init() == 0

    /// The image file at `path`, scaled down (never up) to fit `columns` × `rows` cells.
    package init(file path: String, columns: Int, rows: Int) throws(ImageError) {
        guard TerminalImage.started else {
            let reason = oceq_vips_error().map { String(cString: $0) + "; install it with: apt-get install libvips42" }
            throw ImageError("libvips did not start" + (reason.map { " (\($0))" } ?? ""))
        }
        var width: Int32 = 0
        var height: Int32 = 0
        var error = [CChar](repeating: 0, count: 512)
        let maxWidth = Int32(max(1, columns) * TerminalImage.cellWidth)
        let maxHeight = Int32(max(1, rows) * TerminalImage.cellHeight)
        guard let pixels = oceq_vips_rgba(path, maxWidth, maxHeight, &width, &height, &error, error.count) else {
            let reason = String(decoding: error.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw ImageError("cannot decode: " + reason)
        }
        defer { oceq_vips_free(pixels) }
        self.width = Int(width)
        self.height = Int(height)
        self.pixels = Array(UnsafeBufferPointer(start: pixels, count: Int(width) * Int(height) * 4))
    }

    /// Cells the drawing takes: the pixels at 8 × 16 a cell, at least one each way.
    package var cells: (columns: Int, rows: Int) {
        (
            max(1, (width + TerminalImage.cellWidth - 1) / TerminalImage.cellWidth),
            max(1, (height + TerminalImage.cellHeight - 1) / TerminalImage.cellHeight)
        )
    }

    /// The image drawn in `style`, ending in a newline.
    package func draw(_ style: ImageStyle) -> String {
        let (columns, rows) = cells
        var length = 0
        let text = pixels.withUnsafeBufferPointer { buffer in
            oceq_chafa_draw(
                buffer.baseAddress, Int32(width), Int32(height), Int32(width * 4), Int32(columns), Int32(rows),
                style.pixelMode, style.canvasMode, &length)
        }
        guard let text else { return "" }
        defer { oceq_chafa_free(text) }
        let out = String(
            decoding: UnsafeBufferPointer(
                start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: length), as: UTF8.self)
        return out.hasSuffix("\n") ? out : out + "\n"
    }

    /// The start of every placeholder line.
    package static let placeholderMark = "(?) "

    /// The line shown instead of an image that failed: a question mark, what it was, and why.
    package static func placeholder(_ label: String, reason: String) -> String {
        placeholderMark + TerminalCells.clean(label) + ": " + TerminalCells.clean(reason) + "\n"
    }

    /// A symbols `drawing` with `text` to its right, line by line (the shorter of the two padded
    /// with blank lines).
    package static func beside(_ drawing: String, text: String) -> String {
        let left = lines(drawing)
        let right = lines(text)
        let columns = left.map { TerminalCells.width(of: withoutSGR($0)) }.max() ?? 0
        var out = ""
        for index in 0..<max(left.count, right.count) {
            var image = index < left.count ? left[index] : ""
            image += String(repeating: " ", count: max(0, columns - TerminalCells.width(of: withoutSGR(image))))
            let line = index < right.count ? right[index] : ""
            out += line.isEmpty ? image + "\n" : image + "  " + line + "\n"
        }
        return out
    }

    static func lines(_ text: String) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if text.hasSuffix("\n") { lines.removeLast() }
        return lines
    }

    /// `text` without its CSI sequences (chafa's colours).
    static func withoutSGR(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var inSequence = false
        var sawBracket = false
        for scalar in text.unicodeScalars {
            if inSequence {
                if !sawBracket {
                    sawBracket = true
                    if scalar != "[" { inSequence = false }
                    continue
                }
                if (0x40...0x7E).contains(scalar.value) { inSequence = false }
                continue
            }
            if scalar == "\u{1B}" {
                inSequence = true
                sawBracket = false
                continue
            }
            out.append(scalar)
        }
        return String(out)
    }
}
