import DeliveryKit
import FoundationEssentials
import OCEQCore

extension Credentials {
    /// The names of the profiles in `profiles.json` (only the names: no url or token is read out), sorted;
    /// empty when there is no such file or it is not a profiles file.
    package static func profileNames(environment: [String: String]) -> [String] {
        guard let path = profilesFile(environment: environment), let data = FileManager.default.contents(atPath: path),
            case .object(let profiles)? = try? JSON.parse(Array(data))
        else { return [] }
        return profiles.filter { $0.value.objectValue != nil }.keys.sorted()
    }
}
