import Foundation

/// A black grayscale PNG of any size made at test time: tiny on disk, width × height bytes decoded.
enum PixelBomb {
    /// The PNG file's bytes.
    static func png(width: Int, height: Int) -> [UInt8] {
        let raw = height * (width + 1)  // a filter byte (0) before each row of zeros
        let adler = (UInt32(raw % 65521) << 16) | 1
        let zlib: [UInt8] = [0x78, 0x01] + ZipBomb.deflateZeros(raw) + be32(adler)
        var ihdr = be32(UInt32(width)) + be32(UInt32(height))
        ihdr += [8, 0, 0, 0, 0]  // 8-bit grayscale, deflate, adaptive filtering, no interlace
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + chunk("IDAT", zlib)
            + chunk("IEND", [])
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(UInt32(data.count)) + body + be32(ZipBomb.crc32(body))
    }

    private static func be32(_ value: UInt32) -> [UInt8] {
        (0..<4).reversed().map { UInt8((value >> (8 * $0)) & 0xFF) }
    }
}
