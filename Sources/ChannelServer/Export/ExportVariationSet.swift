import OCEQCore

/// A language variation set (`ContentItems/VariationSets/<ID>.json`): which item holds which
/// language of the same content. DeliveryKit's `VariationSet` is the API's answer, this one the
/// export's file.
public struct ExportVariationSet: Sendable, Hashable {
    /// One variant of the set.
    public struct Member: Sendable, Hashable {
        /// The variant item's id.
        public var id: String
        /// The variation value, e.g. `en-US` (or `und` for non-translatable gen C assets).
        public var value: String
        /// True for the master item.
        public var isMaster: Bool

        public init(id: String, value: String, isMaster: Bool = false) {
            self.id = id
            self.value = value
            self.isMaster = isMaster
        }
    }

    /// The set id.
    public var id: String
    /// `language` in every sample.
    public var varType: String
    public var masterItemId: String
    /// The items' type, when the file says.
    public var type: String?
    public var items: [Member]

    public init(id: String, varType: String, masterItemId: String, type: String? = nil, items: [Member] = []) {
        self.id = id
        self.varType = varType
        self.masterItemId = masterItemId
        self.type = type
        self.items = items
    }
}

extension ExportVariationSet {
    /// The sets in one variation-set file (an array of sets; a single object is accepted too).
    static func parseFile(_ json: JSON) -> [ExportVariationSet]? {
        let candidates: [JSON]
        switch json {
        case .array(let elements): candidates = elements
        case .object: candidates = [json]
        default: return nil
        }
        var sets: [ExportVariationSet] = []
        for candidate in candidates {
            guard let id = candidate["id"]?.stringValue else { continue }
            let members = (candidate["items"]?.arrayValue ?? []).compactMap { member -> Member? in
                guard let memberId = member["id"]?.stringValue else { return nil }
                return Member(
                    id: memberId, value: member["value"]?.stringValue ?? "",
                    isMaster: member["isMaster"]?.boolValue ?? false)
            }
            let master = candidate["masterItemId"]?.stringValue ?? members.first { $0.isMaster }?.id ?? ""
            sets.append(
                ExportVariationSet(
                    id: id, varType: candidate["varType"]?.stringValue ?? "language", masterItemId: master,
                    type: candidate["type"]?.stringValue, items: members))
        }
        return sets
    }

    /// Adds the members of `other` (the same set read from another file) that are missing here.
    mutating func merge(_ other: ExportVariationSet) {
        for member in other.items where !items.contains(where: { $0.id == member.id }) {
            items.append(member)
        }
        if masterItemId.isEmpty { masterItemId = other.masterItemId }
        if type == nil { type = other.type }
    }
}
