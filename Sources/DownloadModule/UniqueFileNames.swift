// Names unique within one folder. Case and Unicode normalisation are ignored when comparing (a
// folder on macOS or Windows would merge `A.jpg` and `a.jpg`, or the NFC and NFD spellings of a
// name): the second `photo.jpg` becomes `photo (2).jpg`, kept within `SafeFileName.maximumBytes`.

import FoundationEssentials
import OCEQCore

/// Hands out file names unique within one folder, ignoring case.
package struct UniqueFileNames: Sendable {
    private var taken: Set<String> = []
    /// For a name claimed more than once, the number its next copy tries first: the copies of one
    /// name are numbered in one step each, not by trying (2), (3) ... again for every copy (10 000
    /// items named `image.jpg` made 50 million tries).
    private var nextNumber: [String: Int] = [:]

    /// No name taken yet.
    package init() {}

    /// Marks `name` as used (a name the folder's manifest already gives another file).
    package mutating func reserve(_ name: String) {
        taken.insert(UniqueFileNames.key(name))
    }

    /// Whether `name` is taken.
    package func isTaken(_ name: String) -> Bool { taken.contains(UniqueFileNames.key(name)) }

    /// `name` if it is free, else `stem (2).ext`, `stem (3).ext` ..., kept within the length cap;
    /// the result is taken from then on.
    package mutating func claim(_ name: String) -> String {
        let key = Self.key(name)
        if taken.insert(key).inserted { return name }
        let (stem, ext) = SafeFileName.split(name)
        var number = nextNumber[key] ?? 2
        while true {
            let suffix = " (\(number))"
            let room = SafeFileName.maximumBytes - suffix.utf8.count - ext.utf8.count
            let candidate = SafeFileName.capped(stem, bytes: max(1, room)) + suffix + ext
            number += 1
            if taken.insert(Self.key(candidate)).inserted {
                nextNumber[key] = number
                return candidate
            }
        }
    }

    /// The name as compared: lower case, in Unicode's composed form. An ASCII name is its own
    /// composed form, and is lowered without Foundation's normalisation (a tenth of planning 74
    /// downloads went there; callgrind).
    package static func key(_ name: String) -> String {
        if name.utf8.allSatisfy({ $0 < 0x80 }) { return name.quickLowercased }
        return name.composed.lowercased()
    }
}

extension UniqueFileNames {
    /// `name.ext`, kept within the length cap.
    static func withExtension(_ name: String, _ ext: String) -> String {
        SafeFileName.capped(name, bytes: SafeFileName.maximumBytes - ext.utf8.count - 1) + "." + ext
    }
}
