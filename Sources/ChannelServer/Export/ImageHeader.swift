// Pixel size of an image from its header, for exports whose `fields.metadata` is `{}` (gen A).
//
// Design: only the few bytes that hold the size are read. PNG (IHDR), GIF (logical screen) and
// WebP (VP8/VP8L/VP8X) keep them in the first 30 bytes; JPEG keeps them in the first SOFn segment,
// which can sit behind a large EXIF block, so JPEG markers are walked with positioned reads.
//
// Why not libvips' header probe (`oceq_vips_probe`, kept for the renderer, which must know that a
// file decodes before it renders one): the export loader measures every image at start, and
// libvips is opened only when a rendition is first asked for. Measured on the sample channel's 74
// images (C harness, dlopen + vips_image_new_from_file with sequential access, 5 rounds, on the
// shared 2-core build machine): opening and starting libvips took 390-470 ms and 29 MiB of RSS,
// and each probe 2.4-2.6 ms; open + one 32-byte pread + close took 0.003 ms per image. A
// 10 000-image export would spend about 25 s probing instead of well under a second.

import Glibc
import OCEQCore

/// The width and height of an image in pixels.
public struct ImageSize: Sendable, Hashable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

/// Reads image sizes from JPEG, PNG, GIF and WebP headers.
public enum ImageHeader {
    /// The size of the image file at `path`, or nil for other formats and damaged headers.
    public static func size(ofFile path: String) -> ImageSize? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return size { offset, count in FileSystem.read(fd: fd, offset: offset, count: count) }
    }

    /// The size of an image held in memory.
    public static func size(of bytes: [UInt8]) -> ImageSize? {
        size { offset, count in
            guard offset >= 0, offset < bytes.count else { return [] }
            return Array(bytes[offset..<min(bytes.count, offset + count)])
        }
    }

    /// `read(offset, count)` returns up to `count` bytes at `offset` (fewer at the end).
    static func size(read: (Int, Int) -> [UInt8]?) -> ImageSize? {
        guard let head = read(0, 32), head.count >= 10 else { return nil }
        if head.count >= 24, head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            // PNG: IHDR is the first chunk; width and height are big-endian at 16 and 20.
            guard head[12...15].elementsEqual(Array("IHDR".utf8)) else { return nil }
            return valid(width: bigEndian32(head, 16), height: bigEndian32(head, 20))
        }
        if head.starts(with: Array("GIF87a".utf8)) || head.starts(with: Array("GIF89a".utf8)) {
            return valid(width: Int(head[6]) | Int(head[7]) << 8, height: Int(head[8]) | Int(head[9]) << 8)
        }
        if head.count >= 30, head.starts(with: Array("RIFF".utf8)), head[8...11].elementsEqual(Array("WEBP".utf8)) {
            return webp(head)
        }
        if head[0] == 0xFF, head[1] == 0xD8 {
            return jpeg(read: read)
        }
        return nil
    }

    private static func webp(_ head: [UInt8]) -> ImageSize? {
        let chunk = String(decoding: head[12...15], as: UTF8.self)
        switch chunk {
        case "VP8 ":
            // Frame tag (3 bytes), start code 9D 01 2A, then 14-bit width and height.
            guard head[23] == 0x9D, head[24] == 0x01, head[25] == 0x2A else { return nil }
            let width = (Int(head[26]) | Int(head[27]) << 8) & 0x3FFF
            let height = (Int(head[28]) | Int(head[29]) << 8) & 0x3FFF
            return valid(width: width, height: height)
        case "VP8L":
            guard head[20] == 0x2F else { return nil }
            let bits = Int(head[21]) | Int(head[22]) << 8 | Int(head[23]) << 16 | Int(head[24]) << 24
            return valid(width: (bits & 0x3FFF) + 1, height: ((bits >> 14) & 0x3FFF) + 1)
        case "VP8X":
            let width = (Int(head[24]) | Int(head[25]) << 8 | Int(head[26]) << 16) + 1
            let height = (Int(head[27]) | Int(head[28]) << 8 | Int(head[29]) << 16) + 1
            return valid(width: width, height: height)
        default:
            return nil
        }
    }

    private static func jpeg(read: (Int, Int) -> [UInt8]?) -> ImageSize? {
        var offset = 2
        // A JPEG has few segments before SOF; the cap guards against garbage.
        for _ in 0..<512 {
            guard var marker = read(offset, 4), marker.count == 4 else { return nil }
            // Skip fill bytes (0xFF padding) before a marker.
            var padding = 0
            while marker[0] == 0xFF, marker[1] == 0xFF, padding < 64 {
                offset += 1
                padding += 1
                guard let next = read(offset, 4), next.count == 4 else { return nil }
                marker = next
            }
            guard marker[0] == 0xFF else { return nil }
            let code = marker[1]
            if code == 0xD8 || code == 0x01 || (0xD0...0xD7).contains(code) {
                offset += 2
                continue
            }
            if code == 0xD9 || code == 0xDA { return nil }  // end of image or start of scan: no SOF seen
            let length = Int(marker[2]) << 8 | Int(marker[3])
            guard length >= 2 else { return nil }
            let isStartOfFrame = (0xC0...0xCF).contains(code) && code != 0xC4 && code != 0xC8 && code != 0xCC
            if isStartOfFrame {
                guard let frame = read(offset + 4, 5), frame.count == 5 else { return nil }
                let height = Int(frame[1]) << 8 | Int(frame[2])
                let width = Int(frame[3]) << 8 | Int(frame[4])
                return valid(width: width, height: height)
            }
            offset += 2 + length
        }
        return nil
    }

    private static func bigEndian32(_ bytes: [UInt8], _ at: Int) -> Int {
        Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
    }

    private static func valid(width: Int, height: Int) -> ImageSize? {
        guard width > 0, height > 0, width <= 1 << 20, height <= 1 << 20 else { return nil }
        return ImageSize(width: width, height: height)
    }
}
