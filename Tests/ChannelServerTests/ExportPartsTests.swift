import ChannelServer
import DeliveryKit
import Foundation
import OCEQCore
import Testing

@Suite("Export reader parts")
struct ExportPartsTests {
    // MARK: - Image headers

    @Test(
        "image sizes are read from JPEG, PNG, GIF and WebP headers",
        arguments: [
            ("40x30.jpg", 40, 30),
            ("40x30-progressive.jpg", 40, 30),
            ("20x10.png", 20, 10),
            ("8x6.gif", 8, 6),
            ("33x17-lossy.webp", 33, 17),
            ("33x17-lossless.webp", 33, 17),
            ("300x200-big-exif.jpg", 300, 200),
        ])
    func imageHeader(file: String, width: Int, height: Int) throws {
        let path = ExportFixtures.images + "/" + file
        #expect(ImageHeader.size(ofFile: path) == ImageSize(width: width, height: height))
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(ImageHeader.size(of: bytes) == ImageSize(width: width, height: height))
    }

    @Test("other files and damaged headers have no size")
    func imageHeaderMisses() throws {
        #expect(ImageHeader.size(ofFile: ExportFixtures.images + "/not-an-image.bin") == nil)
        #expect(ImageHeader.size(ofFile: ExportFixtures.images + "/missing.png") == nil)
        let jpeg = Array(try Data(contentsOf: URL(fileURLWithPath: ExportFixtures.images + "/300x200-big-exif.jpg")))
        #expect(ImageHeader.size(of: Array(jpeg.prefix(1000))) == nil)  // cut inside the EXIF block
        let png = Array(try Data(contentsOf: URL(fileURLWithPath: ExportFixtures.images + "/20x10.png")))
        #expect(ImageHeader.size(of: Array(png.prefix(12))) == nil)
        #expect(ImageHeader.size(of: []) == nil)
        #expect(ImageHeader.size(of: [0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x02, 0xFF, 0xD9, 0, 0, 0]) == nil)
    }

    // MARK: - expand

    private var postType: ContentTypeDefinition {
        ContentTypeDefinition(
            name: "Post", typeCategory: "ContentType",
            fields: [
                FieldDefinition(name: "author", datatype: "reference", referenceTypes: ["Author"]),
                FieldDefinition(name: "title", datatype: "text"),
            ])
    }

    @Test(
        "expand values that are accepted",
        arguments: [
            (nil, ExpandSpec.none),
            ("", .none),
            ("all", .all),
            ("ALL", .all),
            ("fields.author,all", .all),
            ("fields.author", .fields(["author"])),
            ("fields.author, fields.title", .fields(["author", "title"])),
            ("author", .fields(["author"])),
        ] as [(String?, ExpandSpec)])
    func expandAccepted(text: String?, expected: ExpandSpec) throws {
        #expect(try ExpandSpec.parse(text, for: postType) == expected)
    }

    @Test(
        "expand values that are a 400",
        arguments: [
            ("fields.nope", ExpandError.unknownField(name: "nope", type: "Post")),
            ("fields.author.avatar", .tooDeep(path: "fields.author.avatar")),
            ("fields.", .invalid(term: "fields.")),
        ])
    func expandRefused(text: String, expected: ExpandError) {
        #expect(throws: expected) { try ExpandSpec.parse(text, for: postType) }
    }

    @Test("expand messages are one line and name the term")
    func expandMessages() {
        #expect(
            ExpandError.unknownField(name: "nope", type: "Post").description
                == "expand: 'nope' is not a field of type 'Post'")
        #expect(ExpandError.tooDeep(path: "fields.a.b").description.hasPrefix("expand: 'fields.a.b' goes deeper"))
    }

    @Test("without a type any field name is accepted")
    func expandWithoutType() throws {
        #expect(try ExpandSpec.parse("fields.x", for: nil) == .fields(["x"]))
        #expect(ExpandSpec.fields(["b", "a"]).queryValue == "fields.a,fields.b")
        #expect(ExpandSpec.none.queryValue == nil)
    }

    // MARK: - Percent-encoding and links

    @Test(
        "percent-encoding keeps only unreserved characters",
        arguments: [
            ("Author 4(427755).jpg", "Author%204%28427755%29.jpg"),
            ("a+b&c=d/e?f#g", "a%2Bb%26c%3Dd%2Fe%3Ff%23g"),
            ("café.png", "caf%C3%A9.png"),
            ("plain-name_1.~x", "plain-name_1.~x"),
        ])
    func percentEncoding(text: String, encoded: String) {
        #expect(URLEncoding.component(text) == encoded)
        #expect(URLEncoding.decode(encoded) == text)
    }

    @Test("the one percent-decoder keeps malformed escapes as they are and reads + as a space only when asked")
    func percentDecoding() {
        #expect(URLEncoding.decode("a%2") == "a%2")
        #expect(URLEncoding.decode("a%ZZ%4") == "a%ZZ%4")
        #expect(URLEncoding.decode("%E2%82%AC%FF").unicodeScalars.map(\.value) == [0x20AC, 0xFFFD])
        #expect(URLEncoding.decode("a+b", plusAsSpace: true) == "a b")
        #expect(URLEncoding.decode("a+b") == "a+b")
        let request = ChannelServer.ServerRequest(method: "GET", target: "/items/a%2Fb+%ZZ?q=a+b%2B&fields%2Eall#x")
        #expect(request.pathSegments == ["items", "a/b+%ZZ"])
        #expect(request.query.map(\.name) == ["q", "fields.all"])
        #expect(request.query.map(\.value) == ["a b+", ""])
    }

    @Test("the link context drops trailing slashes and encodes the token")
    func linkContext() {
        let context = LinkContext(baseURL: "http://h:1//", channelToken: "a b")
        #expect(context.baseURL == "http://h:1")
        #expect(context.apiRoot == "http://h:1/content/published/api/v1.1")
        #expect(context.tokenQuery == "channelToken=a%20b")
    }

    // MARK: - Small values

    @Test("issues and errors print as one line naming the file")
    func messages() {
        #expect(ExportIssue(file: "/x/a.json", message: "not valid JSON").description == "/x/a.json: not valid JSON")
        #expect(ExportError.notFound(path: "/p").description == "/p: no such file or directory")
        #expect(
            ExportError.corruptArchive(path: "/p.zip", reason: "Truncated ZIP file data").description
                == "/p.zip: corrupt or truncated zip: Truncated ZIP file data")
    }

    @Test("MIME types and file groups")
    func mediaTypes() {
        #expect(MediaTypes.mimeType(forExtension: "JPG") == "image/jpeg")
        #expect(MediaTypes.fileGroup(forMimeType: "video/mp4") == "Videos")
        #expect(MediaTypes.fileGroup(forMimeType: "application/pdf") == "Files")
        #expect(MediaTypes.canonical("image/jpg") == "image/jpeg")
        #expect(MediaTypes.fileExtension(ofName: "a.b.PNG") == "png")
        #expect(MediaTypes.fileExtension(ofName: ".hidden") == nil)
        #expect(MediaTypes.fileExtension(ofName: "noext") == nil)
    }
}
