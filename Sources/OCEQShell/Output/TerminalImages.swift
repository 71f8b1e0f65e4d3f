// Images and rich text for the session's output: the image style `set images` gives on this
// output (none off a terminal), the rich-text options `read` and `show` render HTML with, and one
// asset image fetched through the session's DeliveryClient and drawn, or a one-line placeholder
// saying why not.

import DeliveryKit
import DeliveryTransport
import FoundationEssentials
import Glibc
import OCEQCore
import TerminalMedia

extension Session {
    /// How images are drawn on the output now; nil when they are not (not a terminal, `never`).
    package var imageStyle: ImageStyle? {
        ImageStyle.resolve(
            settings.images, isTerminal: output.isTerminal, environment: ProcessEnvironment.current())
    }

    /// Options for rendering HTML `width` columns wide on the output: styles when colour is on
    /// and the output is a terminal, OSC 8 links when the terminal is known to show them.
    package func richTextOptions(width: Int) -> RichTextOptions {
        let styles = settings.color && output.isTerminal
        let links = styles && TerminalFeatures.supportsHyperlinks(ProcessEnvironment.current())
        return RichTextOptions(width: width, styles: styles, hyperlinks: links)
    }

    /// Downloads `request` to a private temporary folder, decodes it to fit `columns` × `rows`
    /// cells and draws it in `style`; on any failure the placeholder line for `label` with the
    /// reason. The temporary folder is removed either way.
    package func drawImage(
        _ request: any DownloadRequest, label: String, style: ImageStyle, columns: Int, rows: Int
    ) async -> String {
        await drawImageResult(request, label: label, style: style, columns: columns, rows: rows).text
    }

    /// `drawImage`, saying whether the text is a drawing or the placeholder line.
    package func drawImageResult(
        _ request: any DownloadRequest, label: String, style: ImageStyle, columns: Int, rows: Int
    ) async -> (text: String, drawn: Bool) {
        let text = await fetchAndDraw(request, label: label, style: style, columns: columns, rows: rows)
        return (text, !text.hasPrefix(TerminalImage.placeholderMark))
    }

    func fetchAndDraw(
        _ request: any DownloadRequest, label: String, style: ImageStyle, columns: Int, rows: Int
    ) async -> String {
        guard let connection else { return TerminalImage.placeholder(label, reason: "not connected") }
        var template = Array(PathText.joined(XDGPaths.temporaryFolder(), "oceq-image-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            return TerminalImage.placeholder(label, reason: "cannot make a temporary folder")
        }
        let folder = String(cString: made)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path: String
        do {
            path = try await connection.client.download(DownloadJob(request, folder: folder, name: "image")).path
        } catch {
            if case .http(let http) = error { return TerminalImage.placeholder(label, reason: "HTTP \(http.status)") }
            return TerminalImage.placeholder(label, reason: error.description)
        }
        do {
            return try TerminalImage(file: path, columns: columns, rows: rows).draw(style)
        } catch {
            // libvips names the file it read: our temporary path says nothing to the user.
            let reason = error.description.replacingAllBytes(of: "\"" + path + "\"", with: "the file")
                .replacingAllBytes(of: path, with: "the file")
            return TerminalImage.placeholder(label, reason: String(reason.prefix(200)))
        }
    }
}
