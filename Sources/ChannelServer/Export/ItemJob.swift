/// One item file to read.
struct ItemJob: Sendable {
    /// The folder of a job's file, one object shared by the jobs of a folder: a million jobs held
    /// their four paths in 88 bytes each, beside the items being read.
    final class Folder: Sendable {
        let rootIndex: Int
        let root: String
        /// The canonical path of `root`: nothing read for the item may lie outside it.
        let resolvedRoot: String
        /// The type folder's name under `ContentItems/`.
        let name: String
        /// `root/ContentItems/name`, also the folder every item read from it names
        /// (`ExportItem.sourceFolder`).
        let path: String

        init(rootIndex: Int, root: String, resolvedRoot: String, name: String) {
            self.rootIndex = rootIndex
            self.root = root
            self.resolvedRoot = resolvedRoot
            self.name = name
            path = root + "/ContentItems/" + name
        }
    }

    let location: Folder
    var fileName: String

    init(in location: Folder, fileName: String) {
        self.location = location
        self.fileName = fileName
    }

    /// A job in a folder of its own.
    init(rootIndex: Int, root: String, resolvedRoot: String, folder: String, fileName: String) {
        self.init(
            in: Folder(rootIndex: rootIndex, root: root, resolvedRoot: resolvedRoot, name: folder), fileName: fileName)
    }

    var rootIndex: Int { location.rootIndex }
    var root: String { location.root }
    var resolvedRoot: String { location.resolvedRoot }
    /// The type folder's name.
    var folder: String { location.name }
    /// The folder holding the file.
    var folderPath: String { location.path }
    var path: String { folderPath + "/" + fileName }
}
