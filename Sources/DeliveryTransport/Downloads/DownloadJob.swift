/// One file to download: what, into which folder, under which name (chosen by the caller, never
/// taken from the server).
import DeliveryKit
import OCEQCore

public struct DownloadJob: Sendable {
    /// The native file, rendition or thumbnail to fetch.
    public var request: any DownloadRequest
    /// The target folder (created when missing).
    public var folder: String
    /// The file name inside `folder`: no `/`, not `.` or `..`.
    public var name: String
    /// The ETag of the copy already at `path`: sent as `If-None-Match`, and a 304 answer leaves
    /// that file as it is (`DownloadResult.notModified`) instead of downloading it again.
    public var ifNoneMatch: String?
    /// A folder `folder` lies in (a mirror's DIR): then the folders from it down to `folder` are
    /// opened and created without following symbolic links, and a link on the way fails the job
    /// instead of sending the file (or the removal of others) somewhere else.
    public var containedIn: String?
    /// False when the caller listed `folder` before handing out the job and found no part of it
    /// (`partPath`): the download then starts afresh without looking for one to resume (a `stat`
    /// a file saved). A part left by one of this job's own attempts is still resumed.
    public var partMayExist = true

    /// A job writing `request`'s body to `folder/name`.
    public init(_ request: any DownloadRequest, folder: String, name: String) {
        self.request = request
        self.folder = folder
        self.name = name
    }

    /// `folder/name`
    public var path: String { folder.hasSuffix("/") ? folder + name : folder + "/" + name }

    /// `folder/name.part`, where the body is streamed before the rename.
    public var partPath: String { path + ".part" }

    /// `folder/name.part.meta`, the validator (ETag or Last-Modified) that allows resuming the part,
    /// used only where the filesystem refuses extended attributes: normally the validator is kept
    /// in the part's `user.oceq.validator` attribute.
    public var metaPath: String { path + ".part.meta" }

    /// Keeps the validator in `metaPath` even where extended attributes work (tests of the fallback).
    @_spi(Testing) public var validatorInSidecar = false

    /// The validator that would be sent in `If-Range` to resume the part, wherever it is kept.
    @_spi(Testing) public var storedValidator: String? { DownloadMeta.load(for: self)?.validator }

    /// The validator attribute a file carries (a finished download carries none).
    @_spi(Testing) public static func validatorAttribute(of path: String) -> String? {
        FileIO.attribute(path, FileIO.validatorAttribute).flatMap(DownloadMeta.decode)?.validator
    }

    /// Refuses names that could escape the folder or are not names at all.
    func validate() throws(DeliveryError) {
        let bad =
            name.isEmpty || name == "." || name == ".." || name.utf8.contains(UInt8(ascii: "/"))
            || name.utf8.contains(0)
            || name.utf8.count > 240 || folder.isEmpty
        if bad { throw .invalidRequest("unsafe download name \"\(name)\" (expected a plain file name)") }
    }
}

/// A completed download.
public struct DownloadResult: Sendable, Hashable {
    /// The final path.
    public var path: String
    /// The file's size.
    public var bytes: Int64
    /// Bytes that were already in the `.part` file when the successful attempt resumed it (0 for
    /// a fresh download).
    public var resumedFrom: Int64
    /// `Content-Type` of the response.
    public var contentType: String?
    /// `ETag` of the response.
    public var etag: String?
    /// True when the server answered 304 to the job's `If-None-Match`: nothing was transferred and
    /// the file at `path` was left as it was.
    public var notModified: Bool

    public init(
        path: String, bytes: Int64, resumedFrom: Int64 = 0, contentType: String? = nil, etag: String? = nil,
        notModified: Bool = false
    ) {
        self.path = path
        self.bytes = bytes
        self.resumedFrom = resumedFrom
        self.contentType = contentType
        self.etag = etag
        self.notModified = notModified
    }
}

/// Progress of one file.
public struct DownloadProgress: Sendable, Hashable {
    /// The job's index in the list given to the pool (0 for a single download).
    public var index: Int
    /// The job's file name.
    public var name: String
    /// Bytes in the file so far (resumed bytes included).
    public var received: Int64
    /// The file's full size, when the server announced it.
    public var expected: Int64?

    public init(index: Int, name: String, received: Int64, expected: Int64?) {
        self.index = index
        self.name = name
        self.received = received
        self.expected = expected
    }
}

/// Progress of a batch.
public struct DownloadTotals: Sendable, Hashable {
    /// Jobs in the batch.
    public var files: Int
    /// Jobs finished successfully.
    public var completed: Int
    /// Jobs that failed.
    public var failed: Int
    /// Body bytes received over the network by all files so far.
    public var bytesReceived: Int64

    public init(files: Int, completed: Int, failed: Int, bytesReceived: Int64) {
        self.files = files
        self.completed = completed
        self.failed = failed
        self.bytesReceived = bytesReceived
    }
}
