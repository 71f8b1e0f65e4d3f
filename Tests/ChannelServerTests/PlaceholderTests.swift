import ChannelServer
import Testing

@Test("export items know their category")
func exportItemCategory() {
    let asset = ExportItem(id: "CONT1", type: "Image", typeCategory: "DigitalAssetType", name: "a.jpg")
    #expect(asset.isDigitalAsset)
}
