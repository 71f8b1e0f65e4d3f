// The DeliveryKit side of `Scripts/bench-download`: plans a list of rendition downloads (and the
// curl config for the same URLs), then runs them, or one native download, through
// `DeliveryClient.download` on the libcurl transport. Timing and peak RSS are measured outside,
// by `/usr/bin/time`, exactly as for curl.
//
//   oceq-bench-download plan SERVER TOKEN COUNT JOBS CURLCONFIG CURLDIR
//   oceq-bench-download renditions SERVER TOKEN JOBS OUTDIR PARALLEL
//   oceq-bench-download native SERVER TOKEN ID OUTDIR NAME

import DeliveryKit
import DeliveryTransport
import OCEQCore

#if canImport(Glibc)
    import Glibc
#endif

/// Prints to stderr and leaves with status 1 (`leave`).
func fail(_ message: String) -> Never {
    let line = Array("oceq-bench-download: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    leave(1)
}

/// Flushes the output streams and ends the process with `_exit`, as `oceq` does: `exit` runs OpenSSL's exit
/// handler, which frees libcrypto's state while libcurl's engine thread (or a task releasing the
/// client) may still be using it. Seen: "double free or corruption" and a segfault in libcrypto at
/// the end of `native`, 1 run in 10 or so.
func leave(_ status: Int32) -> Never {
    fflush(nil)
    _exit(status)
}

func client(_ server: String, _ token: String) -> DeliveryClient {
    do {
        var configuration = try DeliveryConfiguration(url: server, channelToken: token)
        configuration.retry = .none
        return DeliveryClient(configuration: configuration)
    } catch {
        fail("\(error)")
    }
}

func writeText(_ path: String, _ text: String) {
    guard let file = fopen(path, "w") else { fail("cannot write \(path)") }
    fputs(text, file)
    fclose(file)
}

func readLines(_ path: String) -> [String] {
    guard let file = fopen(path, "r") else { fail("cannot read \(path)") }
    defer { fclose(file) }
    var lines: [String] = []
    var line: UnsafeMutablePointer<CChar>?
    var capacity = 0
    while getline(&line, &capacity, file) > 0 {
        let text = String(cString: line!)
        lines.append(text.hasSuffix("\n") ? String(text.dropLast()) : text)
    }
    free(line)
    return lines
}

/// One planned rendition download.
struct PlannedJob {
    var id: String
    var rendition: String
    var format: String
    var name: String

    var request: DownloadRendition {
        DeliveryAPI.downloadRendition(id: id, renditionName: rendition, format: format)
    }
}

/// Lists the channel's images and takes every rendition and format of one image, then the next,
/// cycling until `count` jobs.
func plan(_ arguments: [String]) async {
    guard arguments.count == 6, let count = Int(arguments[2]) else { fail("plan: bad arguments") }
    let client = client(arguments[0], arguments[1])
    var images: [String] = []
    do {
        let request = DeliveryAPI.listAssets().query(try .equal(field: "type", value: "Image")).order(.name())
            .limit(500)
        for try await asset in client.items(request) { images.append(asset.id) }
    } catch {
        fail("listing images: \(error)")
    }
    guard !images.isEmpty else { fail("the channel has no images") }
    var jobs: [PlannedJob] = []
    var index = 0
    outer: while true {
        for id in images {
            for rendition in ["Thumbnail", "Small", "Medium", "Large"] {
                for format in ["jpg", "webp", "png"] {
                    if jobs.count == count { break outer }
                    jobs.append(PlannedJob(id: id, rendition: rendition, format: format, name: "\(index).\(format)"))
                    index += 1
                }
            }
        }
    }
    var jobText = ""
    var curlText = ""
    for job in jobs {
        jobText += "\(job.id)\t\(job.rendition)\t\(job.format)\t\(job.name)\n"
        let url: String
        do {
            url = try client.prepare(download: job.request).url
        } catch {
            fail("\(error)")
        }
        curlText += "url = \"\(url)\"\noutput = \"\(arguments[5])/\(job.name)\"\n"
    }
    writeText(arguments[3], jobText)
    writeText(arguments[4], curlText)
    print("planned \(jobs.count) rendition downloads over \(images.count) images")
}

/// Downloads the planned jobs with the pool; exits 1 if any failed.
func renditions(_ arguments: [String]) async {
    guard arguments.count == 5, let parallel = Int(arguments[4]) else { fail("renditions: bad arguments") }
    let client = client(arguments[0], arguments[1])
    let jobs = readLines(arguments[2]).filter { !$0.isEmpty }.map { line -> DownloadJob in
        let parts = line.split(separator: "\t").map(String.init)
        guard parts.count == 4 else { fail("bad job line: \(line)") }
        let job = PlannedJob(id: parts[0], rendition: parts[1], format: parts[2], name: parts[3])
        return DownloadJob(job.request, folder: arguments[3], name: job.name)
    }
    let results = await client.download(jobs, maxConcurrent: parallel)
    var bytes: Int64 = 0
    for result in results {
        switch result {
        case .success(let done): bytes += done.bytes
        case .failure(let error): fail("\(error)")
        }
    }
    print("downloaded \(results.count) files, \(bytes) bytes")
}

/// Downloads one native file.
func native(_ arguments: [String]) async {
    guard arguments.count == 5 else { fail("native: bad arguments") }
    let client = client(arguments[0], arguments[1])
    do {
        let result = try await client.download(
            DownloadJob(DeliveryAPI.downloadNative(id: arguments[2]), folder: arguments[3], name: arguments[4]))
        print("downloaded \(result.path), \(result.bytes) bytes")
    } catch {
        fail("\(error)")
    }
}

// The operands, through the package's one argument scanner (no options but --help; `--` ends them).
let usage = "usage: oceq-bench-download plan|renditions|native ... (see Scripts/bench-download)"
var scanner = ArgumentScanner(
    Array(CommandLine.arguments.dropFirst()), options: [.flag("--help", "-h")], operandsEndOptions: true)
var arguments: [String] = []
do {
    for item in try scanner.all() {
        guard case .operand(let word) = item else {
            print(usage)
            leave(0)
        }
        arguments.append(word)
    }
} catch {
    fail("\(error.message)\n\(usage)")
}
switch arguments.first {
case "plan": await plan(Array(arguments.dropFirst()))
case "renditions": await renditions(Array(arguments.dropFirst()))
case "native": await native(Array(arguments.dropFirst()))
default:
    fail(usage)
}
leave(0)
